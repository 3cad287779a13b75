"""prep_mesh: import model.glb; real size, facing -Y, on the ground -> prep/static.blend.

Args: {"model": path, "out": path, "prep": {"length_m", "rotz_deg", "axis"}, "keep_skin": bool}.
Every mesh is unparented with its world transform applied, stripped of armature modifiers,
vertex groups and shape keys, and joined into one object `creature`. With `keep_skin` (the
creature's rig comes from the glb's skin) the vertex groups stay, a mesh hung on a bone gets
that bone's group at weight 1, and the object keeps the transform below as the custom property
`mocap_prep_matrix` (16 floats, rows), which rig_from_skin applies to the skin's joints. The result is rotated
about +Z by rotz_deg, scaled uniformly so its extent along `axis` is length_m, centred on
x = y = 0 (bounding box) and lifted so its lowest point is z = 0.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402


def main(args):
    import bpy
    from mathutils import Matrix, Vector

    model = args["model"]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    mb.progress(0, 3, "import")
    result = bpy.ops.import_scene.gltf(filepath=model, merge_vertices=True)
    if "FINISHED" not in result:
        raise RuntimeError("glTF import of %s did not finish (%s)" % (model, result))
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    if not meshes:
        raise RuntimeError("%s holds no mesh" % model)
    mb.progress(1, 3, "clean")
    keep_skin = args.get("keep_skin", False)
    if keep_skin:
        # A mesh hung on a bone goes where the bone rests (the bind pose), not where an imported pose put it.
        for a in bpy.data.objects:
            if a.type == "ARMATURE":
                a.data.pose_position = "REST"
        bpy.context.view_layer.update()
    for o in meshes:
        if keep_skin and o.parent is not None and o.parent_type == "BONE" and o.parent_bone:
            o.vertex_groups.clear()
            o.vertex_groups.new(name=o.parent_bone).add(list(range(len(o.data.vertices))), 1.0, "REPLACE")
        for m in list(o.modifiers):
            o.modifiers.remove(m)
        mw = o.matrix_world.copy()
        o.parent = None
        o.matrix_world = mw
        if o.data.shape_keys:
            o.shape_key_clear()
        if not keep_skin:
            o.vertex_groups.clear()
    for o in list(bpy.data.objects):
        if o.type != "MESH":
            bpy.data.objects.remove(o, do_unlink=True)
    for o in meshes:
        if o.data.users > 1:
            o.data = o.data.copy()
        o.data.transform(o.matrix_world)
        o.matrix_world = Matrix.Identity(4)
    bpy.ops.object.select_all(action="DESELECT")
    for o in meshes:
        o.select_set(True)
    bpy.context.view_layer.objects.active = meshes[0]
    if len(meshes) > 1:
        bpy.ops.object.join()
    obj = bpy.context.view_layer.objects.active
    obj.name = "creature"
    obj.data.name = "creature"

    prep = args["prep"]
    me = obj.data
    rot = Matrix.Rotation(math.radians(prep["rotz_deg"]), 4, "Z")
    me.transform(rot)
    co = [v.co.copy() for v in me.vertices]
    if not co:
        raise RuntimeError("%s: the mesh has no vertices" % model)
    lo = Vector([min(c[i] for c in co) for i in range(3)])
    hi = Vector([max(c[i] for c in co) for i in range(3)])
    axis = "xyz".index(prep["axis"])
    extent = hi[axis] - lo[axis]
    if extent <= 0:
        raise RuntimeError("%s: the mesh has no extent along %s" % (model, prep["axis"]))
    s = prep["length_m"] / extent
    centre = Vector(((lo.x + hi.x) / 2, (lo.y + hi.y) / 2, lo.z))
    me.transform(Matrix.Scale(s, 4) @ Matrix.Translation(-centre))
    me.update()
    if keep_skin:
        m = Matrix.Scale(s, 4) @ Matrix.Translation(-centre) @ rot
        obj["mocap_prep_matrix"] = [m[r][c] for r in range(4) for c in range(4)]
    mb.progress(2, 3, "save")
    mb.save_blend(bpy, args["out"])
    dims = [(hi[i] - lo[i]) * s for i in range(3)]
    mb.progress(3, 3, "save")
    return {
        "vertices": len(me.vertices),
        "faces": len(me.polygons),
        "scale": s,
        "dimensions": dims,
    }


mb.run(main)

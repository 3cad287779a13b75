"""build_rig: armature from rig.json, skinned mesh, limb paint -> rigged/rigged.blend (+ rig info).

Args: {"static": path, "out_blend": path, "out_info": path, "rig": <validated rig.json>,
"limits": {bone: [[xmin, xmax], ...]}, "keypoints": [{"name", "bone", "end"}], "paint": [...],
"weights": "auto" | "nearest"}.
The armature object has an identity transform, so armature space is world space. Weights come
from Blender's bone heat; vertices heat leaves unweighted (or every vertex, when heat fails) get
inverse-distance weights to the nearest bones, and the result names what was used. The colour
attribute `legpaint` (point domain) holds each paint group's colour where that group's bones
carry at least half the vertex's weight, transparent black elsewhere; `look` (face corners) is
the paint over the texture colour, and is what the Workbench renders show.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402


def build_armature(bpy, rig):
    from mathutils import Vector

    data = bpy.data.armatures.new("Armature")
    arm = bpy.data.objects.new("Armature", data)
    bpy.context.scene.collection.objects.link(arm)
    bpy.context.view_layer.objects.active = arm
    bpy.ops.object.mode_set(mode="EDIT")
    joints = rig["joints"]
    rolls = rig.get("roll_deg", {})
    tails = {}
    for name, head, tail, parent in rig["bones"]:
        eb = data.edit_bones.new(name)
        eb.head = Vector(joints[head])
        eb.tail = Vector(joints[tail])
        eb.roll = math.radians(rolls.get(name, 0.0))
        eb.use_deform = True
        if parent is not None:
            eb.parent = data.edit_bones[parent]
            eb.use_connect = tails.get(parent) == head
        tails[name] = tail
    edit_rolls = {eb.name: eb.roll for eb in data.edit_bones}
    bpy.ops.object.mode_set(mode="OBJECT")
    return arm, edit_rolls


def nearest_weights(np, co, segs, k=3, power=4.0):
    """Inverse-distance weights of each vertex to its k nearest bone segments."""
    heads = np.array([s[0] for s in segs])
    tails = np.array([s[1] for s in segs])
    d = tails - heads
    dd = np.maximum((d * d).sum(1), 1e-12)
    rel = co[:, None, :] - heads[None, :, :]
    t = np.clip((rel * d[None]).sum(2) / dd[None], 0.0, 1.0)
    closest = heads[None] + t[..., None] * d[None]
    dist = np.sqrt(((co[:, None, :] - closest) ** 2).sum(2)) + 1e-4
    w = dist ** -power
    k = min(k, len(segs))
    idx = np.argsort(-w, axis=1)[:, :k]
    top = np.take_along_axis(w, idx, 1)
    top /= top.sum(1, keepdims=True)
    return idx, top


def skin(bpy, np, arm, mesh, mode):
    """Parents `mesh` to `arm` with weights; returns a description of the weights used."""
    bone_names = [b.name for b in arm.data.bones]
    used = "nearest"
    if mode == "auto":
        bpy.ops.object.select_all(action="DESELECT")
        mesh.select_set(True)
        arm.select_set(True)
        bpy.context.view_layer.objects.active = arm
        bpy.ops.object.parent_set(type="ARMATURE_AUTO")
        used = "heat"
    else:
        mesh.parent = arm
        mod = mesh.modifiers.new("Armature", "ARMATURE")
        mod.object = arm
    for n in bone_names:
        if n not in mesh.vertex_groups:
            mesh.vertex_groups.new(name=n)
    nv = len(mesh.data.vertices)
    total = np.zeros(nv)
    for v in mesh.data.vertices:
        total[v.index] = sum(g.weight for g in v.groups)
    missing = np.nonzero(total <= 1e-6)[0]
    if len(missing):
        co = np.array([mesh.data.vertices[i].co[:] for i in missing])
        segs = [(b.head_local[:], b.tail_local[:]) for b in arm.data.bones]
        idx, w = nearest_weights(np, co, segs)
        groups = [mesh.vertex_groups[n] for n in bone_names]
        for row, vi in enumerate(missing):
            for j in range(idx.shape[1]):
                groups[idx[row, j]].add([int(vi)], float(w[row, j]), "REPLACE")
        if used == "heat":
            used = "heat+nearest(%d of %d vertices)" % (len(missing), nv) if len(missing) < nv else "nearest (heat failed)"
    return used


def texture_pixels(np, mesh):
    """The base-colour image of the mesh's first material as linear RGB (H, W, 3), or None."""
    for slot in mesh.material_slots:
        mat = slot.material
        if not mat or not mat.use_nodes:
            continue
        for node in mat.node_tree.nodes:
            if node.type == "TEX_IMAGE" and node.image and node.image.size[0] > 0:
                im = node.image
                w, h = im.size
                px = np.empty(w * h * 4, np.float32)
                im.pixels.foreach_get(px)
                px = px.reshape(h, w, 4)[:, :, :3]
                if not im.is_float and im.colorspace_settings.name.lower().startswith("srgb"):
                    px = np.where(px <= 0.04045, px / 12.92, ((px + 0.055) / 1.055) ** 2.4)
                return px
    return None


def material_colour(mesh):
    for slot in mesh.material_slots:
        mat = slot.material
        if mat:
            if mat.use_nodes:
                for node in mat.node_tree.nodes:
                    if node.type == "BSDF_PRINCIPLED":
                        return tuple(node.inputs["Base Color"].default_value[:3])
            return tuple(mat.diffuse_color[:3])
    return (0.5, 0.5, 0.5)


def paint(bpy, np, mesh, groups):
    """Writes `legpaint` (points) and `look` (corners); returns painted vertex counts per group."""
    me = mesh.data
    nv = len(me.vertices)
    vg_index = {g.name: g.index for g in mesh.vertex_groups}
    weights = np.zeros((nv, max(1, len(groups))))
    for v in me.vertices:
        for g in v.groups:
            for gi, grp in enumerate(groups):
                for bone in grp["bones"]:
                    if vg_index.get(bone) == g.group:
                        weights[v.index, gi] += g.weight
    vcol = np.zeros((nv, 4), np.float32)
    counts = {}
    if groups:
        best = weights.argmax(1)
        best_w = weights[np.arange(nv), best]
        for gi, grp in enumerate(groups):
            sel = (best == gi) & (best_w >= 0.5)
            counts[grp["name"]] = int(sel.sum())
            vcol[sel, :3] = mb.rgb255_to_linear(grp["colour"])
            vcol[sel, 3] = 1.0
    for name in ("legpaint", "look"):
        if name in me.attributes:
            me.attributes.remove(me.attributes[name])
    lp = me.attributes.new("legpaint", "FLOAT_COLOR", "POINT")
    lp.data.foreach_set("color", vcol.ravel())

    nl = len(me.loops)
    loop_vert = np.empty(nl, np.int64)
    me.loops.foreach_get("vertex_index", loop_vert)
    tex = texture_pixels(np, mesh)
    if tex is not None and me.uv_layers:
        uv = np.empty(nl * 2, np.float32)
        me.uv_layers.active.data.foreach_get("uv", uv)
        uv = uv.reshape(nl, 2)
        h, w, _ = tex.shape
        x = np.clip((np.mod(uv[:, 0], 1.0) * w).astype(np.int64), 0, w - 1)
        y = np.clip((np.mod(uv[:, 1], 1.0) * h).astype(np.int64), 0, h - 1)
        base = tex[y, x]
    else:
        base = np.tile(np.array(material_colour(mesh), np.float32), (nl, 1))
    a = vcol[loop_vert, 3:4]
    rgb = base * (1.0 - a) + vcol[loop_vert, :3] * a
    look = np.concatenate([rgb, np.ones((nl, 1), np.float32)], 1).astype(np.float32)
    lk = me.attributes.new("look", "FLOAT_COLOR", "CORNER")
    lk.data.foreach_set("color", look.ravel())
    mb.set_active_colour(me, "look")
    return counts


def rows(m):
    return [list(r) for r in m]


def main(args):
    import bpy
    import numpy as np

    bpy.ops.wm.open_mainfile(filepath=args["static"])
    mesh = mb.find_mesh(bpy)
    rig = args["rig"]
    mb.progress(0, 4, "armature")
    arm, edit_rolls = build_armature(bpy, rig)
    mb.progress(1, 4, "weights")
    used = skin(bpy, np, arm, mesh, args.get("weights", "auto"))
    mb.progress(2, 4, "paint")
    counts = paint(bpy, np, mesh, args["paint"])
    bones = []
    for name, _h, _t, parent in rig["bones"]:
        b = arm.data.bones[name]
        bones.append({
            "name": name,
            "parent": parent,
            "head": list(b.head_local),
            "tail": list(b.tail_local),
            "roll": edit_rolls[name],
            "length": b.length,
            "matrix_local": rows(b.matrix_local),
            "limits_deg": args["limits"][name],
        })
    root = [b[0] for b in rig["bones"] if b[3] is None][0]
    info = {"armature": arm.name, "root": root, "bones": bones, "keypoints": args["keypoints"], "weights": used}
    mb.progress(3, 4, "save")
    # The bridge renames both files into place once it has validated the info.
    bpy.ops.wm.save_as_mainfile(filepath=args["out_blend"], copy=True, compress=False)
    mb.progress(4, 4, "save")
    return {"info": info, "painted": counts, "vertices": len(mesh.data.vertices)}


mb.run(main)

"""gltf_colours: the skinned mesh as the glTF export sees it, so a glTF renderer shows the paint.

The Workbench renders show the face-corner attribute `look` (build_rig.py: the limb paint over
the texture colour). That cannot go to glTF as it is: glTF multiplies COLOR_0 into the base
colour, texture included, and Blender 3.4's exporter reads a face-corner colour attribute by
vertex index, scrambling it (glTF-Blender-IO #1815). So the export gets a temporary copy of the
mesh whose faces with a painted corner (`legpaint` alpha) sit on an untextured white material,
cut from the coat faces along their shared edges, with a point colour attribute exported as
COLOR_0: white on the coat (its texture shows unchanged) and the `look` colours on the paint
faces (the paint, fading into the coat colour across the faces that hold both, as Workbench
draws them). The .blend's own mesh is never changed: its renders stay as they are.
"""

PAINTED = 0.5  # `legpaint` alpha is 1 on painted vertices, 0 elsewhere


class GltfMesh:
    """`with GltfMesh(bpy, mesh) as gm:` export `gm.mesh` in place of `mesh`, with the
    exporter's colour arguments `gm.options`. Without paint, `gm.mesh` is `mesh` and no COLOR_0
    is exported; otherwise it is the copy (under the original's names), deleted on exit."""

    def __init__(self, bpy, mesh):
        self.bpy = bpy
        self.source = mesh
        self.mesh = mesh
        self.names = None
        self.options = {}

    def __enter__(self):
        import numpy as np

        bpy, src = self.bpy, self.source
        props = bpy.ops.export_scene.gltf.get_rna_type().properties
        modern = "export_vertex_color" in props  # Blender 4.2+
        self.options = {"export_vertex_color": "NONE"} if modern else {"export_colors": False}
        attrs = src.data.attributes
        if "legpaint" not in attrs or "look" not in attrs:
            return self
        painted = painted_faces(np, src.data)
        if not painted.any():
            return self
        copy = src.copy()
        copy.data = src.data.copy()
        for coll in src.users_collection:
            coll.objects.link(copy)
        self.names = (src.name, src.data.name)
        src.name, src.data.name = src.name + ".source", src.data.name + ".source"
        copy.name, copy.data.name = self.names
        self.mesh = copy
        slot = paint_material(bpy, copy.data, painted)
        split_between(copy.data, slot)
        paint_colours(np, copy.data, slot)
        self.options = {"export_vertex_color": "ACTIVE"} if modern else {"export_colors": True}
        return self

    def __exit__(self, *_):
        if self.mesh is not self.source:
            data = self.mesh.data
            self.bpy.data.objects.remove(self.mesh, do_unlink=True)
            self.bpy.data.meshes.remove(data)
            self.source.name, self.source.data.name = self.names
            self.mesh = self.source
        return False


def face_of_loops(np, me):
    """The face of every face corner (loop) of mesh `me`."""
    nf = len(me.polygons)
    start = np.empty(nf, np.int64)
    total = np.empty(nf, np.int64)
    me.polygons.foreach_get("loop_start", start)
    me.polygons.foreach_get("loop_total", total)
    order = np.argsort(start, kind="stable")
    return np.repeat(order, total[order])


def painted_faces(np, me):
    """One bool per face: does one of its corners sit on a painted vertex?"""
    nv, nl = len(me.vertices), len(me.loops)
    paint = np.empty(nv * 4, np.float32)
    me.attributes["legpaint"].data.foreach_get("color", paint)
    loop_vert = np.empty(nl, np.int64)
    me.loops.foreach_get("vertex_index", loop_vert)
    corner = paint.reshape(nv, 4)[loop_vert, 3] > PAINTED
    return np.bincount(face_of_loops(np, me), weights=corner, minlength=len(me.polygons)) > 0


def paint_material(bpy, me, painted):
    """Moves the `painted` faces onto a new untextured white material; returns its slot."""
    import numpy as np

    shading = {}
    for mat in me.materials:
        bsdf = principled(mat)
        if bsdf is not None:
            # Paint and coat then shade alike.
            shading = {k: bsdf.inputs[k].default_value for k in ("Roughness", "Metallic") if not bsdf.inputs[k].is_linked}
            break
    if not me.materials:
        # Faces without a material would take glTF's white default, not the grey `look` shows.
        me.materials.append(flat_material(bpy, "coat", (0.5, 0.5, 0.5), {}))
    slot = len(me.materials)
    me.materials.append(flat_material(bpy, "paint", (1.0, 1.0, 1.0), shading))
    index = np.empty(len(me.polygons), np.int64)
    me.polygons.foreach_get("material_index", index)
    index[painted] = slot
    me.polygons.foreach_set("material_index", index)
    return slot


def principled(mat):
    if mat is None or not mat.use_nodes:
        return None
    return next((n for n in mat.node_tree.nodes if n.type == "BSDF_PRINCIPLED"), None)


def flat_material(bpy, name, rgb_linear, shading):
    """An untextured Principled material of one linear colour (glTF's baseColorFactor)."""
    rgba = tuple(rgb_linear) + (1.0,)
    mat = bpy.data.materials.new(name)
    mat.diffuse_color = rgba
    mat.use_nodes = True
    bsdf = principled(mat)
    bsdf.inputs["Base Color"].default_value = rgba
    for key, value in shading.items():
        bsdf.inputs[key].default_value = value
    return mat


def split_between(me, slot):
    """Cuts `me` along every edge between a face on material `slot` and a face on another."""
    import bmesh

    bm = bmesh.new()
    bm.from_mesh(me)
    cut = [e for e in bm.edges if len({f.material_index == slot for f in e.link_faces}) == 2]
    if cut:
        bmesh.ops.split_edges(bm, edges=cut)
    bm.to_mesh(me)
    bm.free()
    me.update()


def paint_colours(np, me, slot):
    """The point attribute `gltf_colour`, made the exported one: white on the vertices of coat
    faces, the mean of their corners' `look` colours on the vertices of paint faces (after the
    cut no vertex has both)."""
    nv, nl, nf = len(me.vertices), len(me.loops), len(me.polygons)
    look = np.empty(nl * 4, np.float32)
    me.attributes["look"].data.foreach_get("color", look)
    look = look.reshape(nl, 4)
    loop_vert = np.empty(nl, np.int64)
    me.loops.foreach_get("vertex_index", loop_vert)
    index = np.empty(nf, np.int64)
    me.polygons.foreach_get("material_index", index)
    on_paint = (index == slot)[face_of_loops(np, me)]
    sums = np.zeros((nv, 4), np.float64)
    counts = np.zeros(nv, np.int64)
    np.add.at(sums, loop_vert[on_paint], look[on_paint])
    np.add.at(counts, loop_vert[on_paint], 1)
    colour = np.ones((nv, 4), np.float32)
    has = counts > 0
    colour[has] = sums[has] / counts[has, None]
    attr = me.attributes.new("gltf_colour", "FLOAT_COLOR", "POINT")
    attr.data.foreach_set("color", colour.ravel())
    try:  # Blender 3.2+
        me.color_attributes.active_color = me.color_attributes["gltf_colour"]
        me.color_attributes.render_color_index = me.color_attributes.find("gltf_colour")
    except AttributeError:
        me.attributes.active_color = me.attributes["gltf_colour"]

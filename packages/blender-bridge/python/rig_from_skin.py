"""rig_from_skin: the armature a skinned model.glb carries, its own weights, limb paint -> rigged.blend.

Args: {"static": path, "out_blend": path, "joints": [{"name", "parent", "head"}] (parents first,
heads in Blender's import frame, model units), "limits": {bone: [[xmin, xmax], ...]},
"keypoints": [{"name", "bone", "end"}], "paint": [...], "max_influences": 4}.
static.blend must come from prep_mesh with `keep_skin`: its mesh keeps the skin's vertex groups
and carries `mocap_prep_matrix`, the transform prep applied to it, which moves the joint heads
the same way. Tails: the one child's head; among several children, the one continuing the
parent's direction (the root: their mean); a leaf, or a bone whose tail would sit on its head,
runs towards the middle of the vertices it mostly carries (along its parent when it carries
fewer than three) as far as they reach, and at least a quarter of the parent's length, kept
inside the box those vertices span. Weights are the skin's: vertices with more influences than
`max_influences` keep their largest ones, renormalised. Then build_rig's paint, and the same
rig info as build_rig.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402


def import_build_rig():
    """build_rig's functions without its main (it calls mb.run when imported)."""
    run = mb.run
    mb.run = lambda main: None
    try:
        import build_rig
    finally:
        mb.run = run
    return build_rig


def limit_influences(mesh, keep):
    """Cuts each vertex to its `keep` largest weights, renormalised; returns (cut, unweighted) counts."""
    groups = mesh.vertex_groups
    cut = unweighted = 0
    for v in mesh.data.vertices:
        ws = sorted(((g.weight, g.group) for g in v.groups if g.weight > 0), reverse=True)
        if not ws:
            unweighted += 1
            continue
        if len(ws) <= keep:
            continue
        cut += 1
        for _w, gi in ws[keep:]:
            groups[gi].remove([v.index])
        total = sum(w for w, _g in ws[:keep])
        for w, gi in ws[:keep]:
            groups[gi].add([v.index], w / total, "REPLACE")
    return cut, unweighted


def carried_points(mesh, name):
    """Positions of the vertices that bone `name` carries at least half of."""
    vg = mesh.vertex_groups.get(name)
    if vg is None:
        return []
    out = []
    for v in mesh.data.vertices:
        for g in v.groups:
            if g.group == vg.index and g.weight >= 0.5:
                out.append(v.co.copy())
                break
    return out


def tails(mesh, joints, heads, eps):
    """Each bone's tail position (see the module's docstring)."""
    from mathutils import Vector

    parent = {j["name"]: j["parent"] for j in joints}
    kids = {j["name"]: [] for j in joints}
    for j in joints:
        if j["parent"] is not None:
            kids[j["parent"]].append(j["name"])

    def direction(name):
        p = parent[name]
        while p is not None:
            d = heads[name] - heads[p]
            if d.length > eps:
                return d.normalized(), d.length
            p = parent[p]
        return Vector((0.0, 0.0, 1.0)), 0.0

    out = {}
    for j in joints:
        n = j["name"]
        h = heads[n]
        tail = None
        cs = [c for c in kids[n] if (heads[c] - h).length > eps]
        if len(cs) == 1:
            tail = heads[cs[0]]
        elif cs and parent[n] is not None:
            d, _l = direction(n)
            tail = heads[max(cs, key=lambda c: (heads[c] - h).normalized().dot(d))]
        elif cs:
            tail = sum((heads[c] for c in cs), Vector()) / len(cs)
            if (tail - h).length <= eps:
                tail = None
        if tail is None:
            d, parent_len = direction(n)
            pts = carried_points(mesh, n)
            if len(pts) >= 3:
                # Towards the middle of what it carries, so a toe runs along the ground, not into it.
                c = sum(pts, Vector()) / len(pts) - h
                if c.length > eps:
                    d = c.normalized()
            reach = max([(p - h).dot(d) for p in pts] + [0.0])
            length = max(reach, 0.25 * parent_len, 10 * eps)
            tail = h + d * length
            if len(pts) >= 3:
                # Inside the box of what it carries: the farthest projection can overshoot the mesh.
                tail = Vector([min(max(tail[i], min(p[i] for p in pts)), max(p[i] for p in pts)) for i in range(3)])
                if (tail - h).length <= 10 * eps:
                    tail = h + d * length
        out[n] = tail
    return out


def main(args):
    import bpy
    import numpy as np
    from mathutils import Matrix, Vector

    br = import_build_rig()
    bpy.ops.wm.open_mainfile(filepath=args["static"])
    mesh = mb.find_mesh(bpy)
    if "mocap_prep_matrix" not in mesh:
        raise RuntimeError(
            "%s was prepped without its skin (no mocap_prep_matrix): run `mocap prep` again" % args["static"]
        )
    prep = Matrix([list(mesh["mocap_prep_matrix"])[r * 4:r * 4 + 4] for r in range(4)])
    joints = args["joints"]
    names = [j["name"] for j in joints]
    missing = [n for n in names if n not in mesh.vertex_groups]
    stray = [g.name for g in mesh.vertex_groups if g.name not in names]
    if stray:
        # Only weightless joints are dropped, so their groups hold nothing worth keeping.
        for g in stray:
            mesh.vertex_groups.remove(mesh.vertex_groups[g])
    mb.progress(0, 4, "armature")
    heads = {j["name"]: prep @ Vector(j["head"]) for j in joints}
    xs = [v.co for v in mesh.data.vertices]
    size = max(max(c[i] for c in xs) - min(c[i] for c in xs) for i in range(3))
    tail_at = tails(mesh, joints, heads, 1e-5 * size)
    rig = {"joints": {}, "bones": [], "roll_deg": {}}
    for j in joints:
        n = j["name"]
        rig["joints"][n] = list(heads[n])
        rig["joints"][n + ".tail"] = list(tail_at[n])
        rig["bones"].append([n, n, n + ".tail", j["parent"]])
    arm, edit_rolls = br.build_armature(bpy, rig)
    mb.progress(1, 4, "weights")
    mesh.parent = arm
    mod = mesh.modifiers.new("Armature", "ARMATURE")
    mod.object = arm
    keep = args.get("max_influences", 4)
    cut, unweighted = limit_influences(mesh, keep)
    used = "skin"
    if cut:
        used += " (%d vertices cut to their %d largest influences)" % (cut, keep)
    if unweighted:
        used += " (%d vertices unweighted)" % unweighted
    mb.progress(2, 4, "paint")
    counts = br.paint(bpy, np, mesh, args["paint"])
    bones = []
    for j in joints:
        b = arm.data.bones[j["name"]]
        bones.append({
            "name": b.name,
            "parent": j["parent"],
            "head": list(b.head_local),
            "tail": list(b.tail_local),
            "roll": edit_rolls[b.name],
            "length": b.length,
            "matrix_local": br.rows(b.matrix_local),
            "limits_deg": args["limits"][b.name],
        })
    info = {"armature": arm.name, "root": joints[0]["name"], "bones": bones, "keypoints": args["keypoints"], "weights": used}
    mb.progress(3, 4, "save")
    # The bridge renames the file into place once it has validated the info.
    bpy.ops.wm.save_as_mainfile(filepath=args["out_blend"], copy=True, compress=False)
    mb.progress(4, 4, "save")
    return {"info": info, "painted": counts, "vertices": len(mesh.data.vertices), "missing_groups": missing}


mb.run(main)

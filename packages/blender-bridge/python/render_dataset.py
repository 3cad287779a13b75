"""render_dataset: seeded random poses within limits, both views, true joints -> dataset/.

Args: {"rigged": path, "layout": <layout>, "info": <rig_info.json>, "out_dir": path,
"count": N, "seed": S, "mode": "gait", "spread": 0.9, "yaw_deg": 25, "tilt_deg": 4, "trans_m": 0.05,
"aa": "OFF", "feet": [joint, ...], "paint": [{"name", "bones"}, ...], "offset": 0, "stride": 1,
"transparent": false}: this process renders samples offset, offset + stride, ...
Poses (``mode``): ``gait`` (default) draws one frame of a gait-like motion, as the solver's
synthetic exam motion does (legs = bones whose feet share one paint group); ``uniform`` draws
each axis uniformly within ``spread`` of its limits. Sample i draws from its own generator seeded by (S, i), so any sample can be re-rendered alone,
and a run that is interrupted continues where it stopped: a sample whose meta file exists is
skipped (its images are renamed into place before the meta is written). `visible` says, per
view, whether the first surface in front of each joint belongs to the joint's own bone or a
neighbouring one (not hidden behind another limb or the body). Each pose follows
motion.json's conventions; the rig is lowered or lifted so its lowest foot joint (creature.json `feet`; any joint
without feet) touches z = 0.
"""

import json
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402


def quat_wxyz(yaw, pitch, roll):
    """Rz(yaw) * Ry(pitch) * Rx(roll) as a (w, x, y, z) quaternion."""
    from mathutils import Euler

    q = Euler((roll, pitch, yaw), "XYZ").to_quaternion()
    return [q.w, q.x, q.y, q.z]


def limb_of(info, paint, feet):
    """Per bone, the paint group of its feet when all the feet below it share one (a leg), else
    None: the bones the gait drives. Paint groups are creature.json `paint` (name + bones)."""
    parents = {b["name"]: b["parent"] for b in info["bones"]}
    group_of_bone = {bn: g["name"] for g in paint for bn in g.get("bones", [])}
    sets = {b["name"]: set() for b in info["bones"]}
    for k in info["keypoints"]:
        if k["name"] not in feet:
            continue
        g = group_of_bone.get(k["bone"], "foot:" + k["name"])
        b = k["bone"]
        while b is not None:
            sets[b].add(g)
            b = parents.get(b)
    return {b: (next(iter(s)) if len(s) == 1 and b != info["root"] else None) for b, s in sets.items()}


def sample_gait_pose(rng, info, args, limb):
    """One frame of a gait-like motion, drawn like the solver's synthetic exam motion: per axis two
    slow sinusoids at random phases plus a little noise, and on the leg flexion (X) axes a gait
    sinusoid with a random phase shared by the legs and offset per leg (a walk's footfall order)
    and down the leg; the sum squashed smoothly into `spread` of each limit range. The root turns
    up to +-`yaw_deg`, tilts +-`tilt_deg` and shifts +-`trans_m`."""
    spread = args.get("spread", 0.9)
    order = []
    for b in info["bones"]:
        g = limb.get(b["name"])
        if g is not None and g not in order:
            order.append(g)
    phase_of = {g: (i * 0.5 + (i // 2) * 0.25) % 1.0 for i, g in enumerate(order)}
    parents = {b["name"]: b["parent"] for b in info["bones"]}
    depth = {}
    for b in info["bones"]:
        p = parents[b["name"]]
        depth[b["name"]] = depth.get(p, -1) + 1 if p is not None and limb.get(p) == limb.get(b["name"]) else 0
    gait_phase = rng.random()
    two_pi = 2.0 * math.pi
    euler = {}
    for b in info["bones"]:
        name = b["name"]
        if name == info["root"]:
            euler[name] = [0.0, 0.0, 0.0]
            continue
        angles = []
        for axis, (lo, hi) in enumerate(b["limits_deg"]):
            c, h = (lo + hi) / 2.0, (hi - lo) / 2.0
            s = rng.uniform(0.2, 0.5) * math.sin(two_pi * rng.random())
            s += rng.uniform(0.15, 0.35) * math.sin(two_pi * rng.random())
            s += 0.25 * rng.gauss(0.0, 1.0)
            if limb.get(name) is not None and axis == 0:
                ph = gait_phase + phase_of[limb[name]] + 0.1 * depth[name]
                s += rng.uniform(0.7, 1.0) * math.sin(two_pi * ph)
            angles.append(math.radians(c + h * spread * math.tanh(s)))
        euler[name] = angles
    tilt = math.radians(args.get("tilt_deg", 4))
    q = quat_wxyz(
        math.radians(rng.uniform(-1, 1) * args.get("yaw_deg", 25)),
        rng.uniform(-tilt, tilt),
        rng.uniform(-tilt, tilt),
    )
    tm = args.get("trans_m", 0.05)
    trans = [rng.uniform(-tm, tm), rng.uniform(-tm, tm), 0.0]
    return euler, q, trans


def sample_pose(rng, info, args, limb=None):
    """A pose: `gait` (the default, motion-like) or `uniform` (each axis uniform in `spread` of
    its limit range, root yaw +-`yaw_deg`)."""
    if args.get("mode", "gait") == "gait":
        return sample_gait_pose(rng, info, args, limb or {})
    spread = args.get("spread", 0.9)
    euler = {}
    for b in info["bones"]:
        if b["name"] == info["root"]:
            euler[b["name"]] = [0.0, 0.0, 0.0]
            continue
        euler[b["name"]] = [math.radians(rng.uniform(lo, hi) * spread) for lo, hi in b["limits_deg"]]
    tilt = math.radians(args.get("tilt_deg", 4))
    q = quat_wxyz(
        math.radians(rng.uniform(-1, 1) * args.get("yaw_deg", 25)),
        rng.uniform(-tilt, tilt),
        rng.uniform(-tilt, tilt),
    )
    tm = args.get("trans_m", 0.05)
    trans = [rng.uniform(-tm, tm), rng.uniform(-tm, tm), 0.0]
    return euler, q, trans


def face_bones(mesh, bone_names):
    """The bone that carries the most weight on each face of the mesh (by its vertices)."""
    index = {g.index: g.name for g in mesh.vertex_groups}
    vert_bone = []
    for v in mesh.data.vertices:
        best, w = None, 0.0
        for g in v.groups:
            if g.weight > w and index.get(g.group) in bone_names:
                best, w = index[g.group], g.weight
        vert_bone.append(best)
    out = []
    for f in mesh.data.polygons:
        votes = {}
        for vi in f.vertices:
            b = vert_bone[vi]
            votes[b] = votes.get(b, 0) + 1
        out.append(max(votes, key=votes.get))
    return out


def visibility(bpy, mesh, keypoints, joints, allowed, faces):
    """Per view, whether the first surface in front of each joint is its own bone's (or a
    neighbour's): joints behind another limb or the body are hidden."""
    from mathutils import Vector
    from mathutils.bvhtree import BVHTree

    tree = BVHTree.FromObject(mesh, bpy.context.evaluated_depsgraph_get())
    out = {}
    for view, d in (("front", Vector((0, 1, 0))), ("side", Vector((1, 0, 0)))):
        flags = []
        for k, p in zip(keypoints, joints):
            origin = Vector(p) - d * 20.0
            loc, _n, face, dist = tree.ray_cast(origin, d, 20.0)
            flags.append(loc is None or dist >= 20.0 - 1e-6 or faces[face] in allowed[k["name"]])
        out[view] = flags
    return out


def main(args):
    import bpy

    t0 = time.time()
    bpy.ops.wm.open_mainfile(filepath=args["rigged"])
    layout = args["layout"]
    info = args["info"]
    out = args["out_dir"]
    os.makedirs(out, exist_ok=True)
    arm = mb.find_armature(bpy)
    cams = mb.setup_cameras(bpy, layout)
    studio = mb.setup_render(bpy, layout, args.get("aa", "OFF"), args.get("transparent", False))
    names = [k["name"] for k in info["keypoints"]]
    feet = set(args.get("feet") or []) & set(names) or set(names)
    bones = [b["name"] for b in info["bones"]]
    count = args["count"]
    seed = args["seed"]
    mesh = mb.find_mesh(bpy)
    parents = {b["name"]: b["parent"] for b in info["bones"]}
    allowed = {}
    for k in info["keypoints"]:
        near = {k["bone"], parents.get(k["bone"])}
        near |= {b for b, par in parents.items() if par == k["bone"]}
        allowed[k["name"]] = near
    faces = face_bones(mesh, set(bones))
    limb = limb_of(info, args.get("paint") or [], set(args.get("feet") or []))
    rendered = skipped = 0
    first = None
    loop_start = time.time()
    first_i = args.get("offset", 0)
    stride = args.get("stride", 1)
    mine = len(range(first_i, count, stride))
    done = 0
    for i in range(first_i, count, stride):
        done += 1
        stem = "%05d" % i
        meta_path = os.path.join(out, stem + "_meta.json")
        if os.path.exists(meta_path):
            skipped += 1
            mb.progress(done, mine, "render", index=i, skipped=True)
            continue
        rng = random.Random("%d:%d" % (seed, i))
        euler, q, trans = sample_pose(rng, info, args, limb)
        mb.pose_rig(arm, info["root"], bones, [euler[b] for b in bones], trans, q)
        bpy.context.view_layer.update()
        low = min(p[2] for k, p in zip(names, mb.keypoint_positions(arm, info["keypoints"])) if k in feet)
        trans[2] -= low
        mb.pose_rig(arm, info["root"], bones, [euler[b] for b in bones], trans, q)
        bpy.context.view_layer.update()
        joints = mb.keypoint_positions(arm, info["keypoints"])
        visible = visibility(bpy, mesh, info["keypoints"], joints, allowed, faces)
        ts = time.time()
        for view in ("front", "side"):
            mb.render_view(bpy, cams, studio, layout, view, os.path.join(out, "%s_%s.png" % (stem, view)))
        if first is None:
            first = time.time() - ts
        uv = [mb.project(layout, p) for p in joints]
        meta = {
            "index": i,
            "seed": seed,
            "names": names,
            "joints_m": joints,
            "front_uv": [f for f, _ in uv],
            "side_uv": [s for _, s in uv],
            "visible": visible,
            "pose": {"euler": euler, "trans": trans, "root_quat": q},
            "images": {"front": stem + "_front.png", "side": stem + "_side.png"},
        }
        tmp = mb.tmp_name(meta_path)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(meta, f)
        mb.replace(tmp, meta_path)
        rendered += 1
        mb.progress(done, mine, "render", index=i, skipped=False)
    loop = time.time() - loop_start
    return {
        "rendered": rendered,
        "skipped": skipped,
        "startup_s": loop_start - t0,
        "loop_s": loop,
        "first_sample_render_s": first,
    }


mb.run(main)

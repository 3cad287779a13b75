"""apply_motion: key the rig from motion.json; joints.json, per-frame renders, glTF, BVH, FBX.

Args: {"rigged": path, "motion": <validated motion.json>, "info": <rig_info.json>,
"layout": <layout>, "joints": path, "glb": path|null, "bvh": path|null, "fbx": path|null,
"renders": {"dir": path, "frames": [t, ...], "aa": "8",
"showcase": {"camera": <creature.json camera>, "size": [w, h]}|null}|null}: with `showcase`, each
rendered frame also gets `<t>_showcase.png` from creature.json's 3/4 perspective camera.
Frame t of the motion is scene frame t (frame_start 0), so glTF time is t / fps. Every output is
written under a temporary name and renamed into place only once all of them succeeded.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402


def key_action(bpy, arm, motion, root):
    from mathutils import Quaternion, Vector

    bones = motion["bones"]
    T = len(motion["trans"])
    arm.animation_data_create()
    action = bpy.data.actions.new("mocap")
    arm.animation_data.action = action
    frames = list(range(T))

    def curve(path, index, group, values):
        fc = action.fcurves.new(path, index=index, action_group=group)
        fc.keyframe_points.add(T)
        co = []
        for f, v in zip(frames, values):
            co.extend((f, v))
        fc.keyframe_points.foreach_set("co", co)
        fc.keyframe_points.foreach_set("interpolation", [1] * T)  # LINEAR
        fc.update()

    root_pb = arm.pose.bones[root]
    rest = root_pb.bone.matrix_local.to_quaternion()
    rest_inv = rest.inverted()
    quats, locs = [], []
    prev = None
    for t in range(T):
        q = rest_inv @ Quaternion(motion["root_quat"][t]) @ rest
        if prev is not None and prev.dot(q) < 0:
            q.negate()
        prev = q
        quats.append(q)
        locs.append(rest_inv @ Vector(motion["trans"][t]))
    root_pb.rotation_mode = "QUATERNION"
    rp = 'pose.bones["%s"]' % root
    for i in range(4):
        curve(rp + ".rotation_quaternion", i, root, [q[i] for q in quats])
    for i in range(3):
        curve(rp + ".location", i, root, [v[i] for v in locs])
    for b, name in enumerate(bones):
        if name == root:
            continue
        arm.pose.bones[name].rotation_mode = "XYZ"
        path = 'pose.bones["%s"].rotation_euler' % name
        for i in range(3):
            curve(path, i, name, [motion["euler"][t][b][i] for t in range(T)])
    return T


def select_only(bpy, objs, active):
    bpy.ops.object.select_all(action="DESELECT")
    for o in objs:
        o.select_set(True)
    bpy.context.view_layer.objects.active = active


def main(args):
    import bpy

    bpy.ops.wm.open_mainfile(filepath=args["rigged"])
    motion = args["motion"]
    info = args["info"]
    layout = args["layout"]
    arm = mb.find_armature(bpy)
    mesh = mb.find_mesh(bpy)
    known = set(b.name for b in arm.data.bones)
    for name in motion["bones"]:
        if name not in known:
            raise RuntimeError("motion.json bone %r is not a bone of the rig" % name)
    T = key_action(bpy, arm, motion, info["root"])
    sc = bpy.context.scene
    fps = motion["fps"]
    sc.render.fps = max(1, round(fps))
    sc.render.fps_base = sc.render.fps / fps
    sc.frame_start = 0
    sc.frame_end = T - 1
    renders = args.get("renders")
    frames = set(renders["frames"]) if renders else set()
    total = T + len(frames) * 2 + 3
    done = 0
    cams = studio = showcase = None
    if renders:
        cams = mb.setup_cameras(bpy, layout)
        studio = mb.setup_render(bpy, layout, renders.get("aa", "8"))
        if renders.get("showcase"):
            sc_args = renders["showcase"]
            showcase = mb.setup_showcase(bpy, sc_args["camera"])
            total += len(frames)
    joints = []
    for t in range(T):
        sc.frame_set(t)
        joints.append(mb.keypoint_positions(arm, info["keypoints"]))
        done += 1
        if t in frames:
            for view in ("front", "side"):
                mb.render_view(bpy, cams, studio, layout, view, os.path.join(renders["dir"], "%05d_%s.png" % (t, view)))
                done += 1
            if showcase is not None:
                w, h = renders["showcase"]["size"]
                mb.render_camera(bpy, showcase, studio, w, h, os.path.join(renders["dir"], "%05d_showcase.png" % t))
                done += 1
        mb.progress(done, total, "frames", frame=t)
    tmps = []
    jt = mb.tmp_name(args["joints"])
    with open(jt, "w", encoding="utf-8") as f:
        json.dump({"fps": fps, "names": [k["name"] for k in info["keypoints"]], "joints": joints}, f)
    tmps.append((jt, args["joints"]))
    sc.frame_set(0)
    if args.get("glb"):
        tmp = mb.tmp_name(args["glb"])
        select_only(bpy, [arm, mesh], arm)
        bpy.ops.export_scene.gltf(
            filepath=tmp,
            export_format="GLB",
            use_selection=True,
            export_animations=True,
            export_force_sampling=True,
            export_cameras=False,
            export_lights=False,
            export_yup=True,
        )
        tmps.append((tmp, args["glb"]))
    done += 1
    mb.progress(done, total, "export", format="glb")
    if args.get("bvh"):
        tmp = mb.tmp_name(args["bvh"])
        select_only(bpy, [arm], arm)
        bpy.ops.export_anim.bvh(filepath=tmp, frame_start=0, frame_end=T - 1, rotate_mode="NATIVE")
        tmps.append((tmp, args["bvh"]))
    done += 1
    mb.progress(done, total, "export", format="bvh")
    if args.get("fbx"):
        tmp = mb.tmp_name(args["fbx"])
        select_only(bpy, [arm, mesh], arm)
        bpy.ops.export_scene.fbx(
            filepath=tmp,
            use_selection=True,
            object_types={"ARMATURE", "MESH"},
            bake_anim=True,
            add_leaf_bones=False,
        )
        tmps.append((tmp, args["fbx"]))
    done += 1
    mb.progress(done, total, "export", format="fbx")
    for tmp, final in tmps:
        mb.replace(tmp, final)
    return {"frames": T, "rendered": sorted(frames)}


mb.run(main)

"""apply_motion: key the rig from motion.json; joints.json, glTF, BVH, FBX first, then renders.

Args: {"rigged": path, "motion": <validated motion.json>, "info": <rig_info.json>,
"layout": <layout>, "joints": path|null, "glb": path|null, "bvh": path|null, "fbx": path|null,
"renders": {"dir": path, "frames": [t, ...], "views": ["front", "side", "showcase"], "aa": "8",
"showcase": {"camera": <creature.json camera>, "size": [w, h], "aa": "OFF"}|null}|null}.

Order: the action is keyed, then joints.json and the exports are written (temporary names,
renamed into place together once all succeeded), then the renders, each view one animation
render per run of consecutive frames: `<t>_front.png`, `<t>_side.png` (the layout's orthographic
views) and `<t>_showcase.png` (creature.json's 3/4 perspective camera over the wall colour).
Blender writes each render under a `.tmp-` name, renamed (and reported) as soon as it is written. A process
given `"joints": null` keys and renders only (the bridge's extra render processes).
Frame t of the motion is scene frame t (frame_start 0), so glTF time is t / fps.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402
from gltf_colours import GltfMesh  # noqa: E402


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


def runs_of(frames):
    """Sorted frames -> [(first, last), ...] runs of consecutive frames."""
    out = []
    for t in sorted(set(frames)):
        if out and t == out[-1][1] + 1:
            out[-1][1] = t
        else:
            out.append([t, t])
    return [tuple(r) for r in out]


class Static:
    """Stops the skinned mesh from being re-evaluated on every frame change while nothing needs
    its deformed shape: for the joints and the BVH the mesh leaves the depsgraph (hide_viewport);
    for the glTF and FBX exports (which skin from the vertex groups and the armature modifier's
    object, not from the deformed mesh) only its armature modifiers are switched off. Restored on
    exit, before any render."""

    def __init__(self, mesh, hide):
        self.mesh = mesh
        self.hide = hide
        self.saved = []

    def __enter__(self):
        if self.hide:
            self.saved = [("hide", self.mesh.hide_viewport)]
            self.mesh.hide_viewport = True
        else:
            self.saved = [(m, m.show_viewport) for m in self.mesh.modifiers if m.type == "ARMATURE"]
            for m, _ in self.saved:
                m.show_viewport = False
        return self

    def __exit__(self, *_):
        for what, value in self.saved:
            if what == "hide":
                self.mesh.hide_viewport = value
            else:
                what.show_viewport = value
        return False


def write_exports(bpy, args, arm, mesh, info, T, report):
    """joints.json, then the glTF, BVH and FBX asked for; all renamed into place together."""
    sc = bpy.context.scene
    tmps = []
    joints = []
    with Static(mesh, hide=True):
        for t in range(T):
            sc.frame_set(t)
            joints.append(mb.keypoint_positions(arm, info["keypoints"]))
            report("frames", frame=t)
        jt = mb.tmp_name(args["joints"])
        with open(jt, "w", encoding="utf-8") as f:
            json.dump({"fps": args["motion"]["fps"], "names": [k["name"] for k in info["keypoints"]], "joints": joints}, f)
        tmps.append((jt, args["joints"]))
        if args.get("bvh"):
            tmp = mb.tmp_name(args["bvh"])
            select_only(bpy, [arm], arm)
            bpy.ops.export_anim.bvh(filepath=tmp, frame_start=0, frame_end=T - 1, rotate_mode="NATIVE")
            tmps.append((tmp, args["bvh"]))
            report("export", format="bvh")
    sc.frame_set(0)
    with Static(mesh, hide=False):
        if args.get("glb"):
            tmp = mb.tmp_name(args["glb"])
            with GltfMesh(bpy, mesh) as gm:
                select_only(bpy, [arm, gm.mesh], arm)
                bpy.ops.export_scene.gltf(
                    filepath=tmp,
                    export_format="GLB",
                    use_selection=True,
                    export_animations=True,
                    export_force_sampling=True,
                    export_cameras=False,
                    export_lights=False,
                    export_yup=True,
                    **gm.options,
                )
            tmps.append((tmp, args["glb"]))
            report("export", format="glb")
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
            report("export", format="fbx")
    sc.frame_set(0)
    for tmp, final in tmps:
        mb.replace(tmp, final)


def tmp_prefix(out_dir, view):
    """Where Blender writes a view's frames: `<view>.tmp-<pid>-<t>.png` (`#####` is the frame)."""
    return os.path.join(out_dir, "%s.tmp-%d-" % (view, os.getpid()))


def render_runs(bpy, out_dir, view, frames):
    """Renders `frames` of the scene camera as animations (one per run of consecutive frames);
    each frame is renamed to `<t>_<view>.png` as soon as Blender has written it (render_all's
    render_write handler), so a consumer may read it while the next one renders."""
    sc = bpy.context.scene
    sc.render.filepath = tmp_prefix(out_dir, view) + "#####"
    sc.render.use_file_extension = True
    sc.render.use_overwrite = True
    sc.render.use_placeholder = False
    for first, last in runs_of(frames):
        sc.frame_start = first
        sc.frame_end = last
        bpy.ops.render.render(animation=True)


def render_all(bpy, renders, layout, report):
    """The requested views of the requested frames; the orthographic views first (the studio),
    then the showcase (its own cheap settings: no floor planes, no compositor)."""
    sc = bpy.context.scene
    out_dir = renders["dir"]
    frames = renders["frames"]
    views = renders.get("views", ["front", "side"])
    ortho = [v for v in views if v in ("front", "side")]
    state = {"view": None}

    def written(_scene, *_):
        t = sc.frame_current
        view = state["view"]
        mb.replace("%s%05d.png" % (tmp_prefix(out_dir, view), t), os.path.join(out_dir, "%05d_%s.png" % (t, view)))
        report("render", view=view, frame=t)

    studio = None
    if ortho:
        cams = mb.setup_cameras(bpy, layout)
        studio = mb.setup_render(bpy, layout, renders.get("aa", "8"))
    if "showcase" in views and studio is None:
        studio = mb.setup_render(bpy, layout, "OFF", transparent=True)
    # After the set-up: the floor calibration's test renders are not the frames.
    bpy.app.handlers.render_write.append(written)
    for view in ortho:
        w, h = mb.view_size(layout, view)
        if studio.get("node") is not None:
            studio["node"].image = mb.backdrop_image(bpy, studio, w, h, layout["GROUND_V"])
        sc.render.resolution_x = w
        sc.render.resolution_y = h
        sc.camera = cams[view]
        state["view"] = view
        render_runs(bpy, out_dir, view, frames)
    if "showcase" in views:
        args = renders["showcase"]
        setup_showcase_render(bpy, studio, layout, args.get("aa", "OFF"))
        w, h = args["size"]
        sc.render.resolution_x = w
        sc.render.resolution_y = h
        sc.camera = mb.setup_showcase(bpy, args["camera"])
        state["view"] = "showcase"
        render_runs(bpy, out_dir, "showcase", frames)


def setup_showcase_render(bpy, studio, layout, aa):
    """The 3/4 view's cheap look: the creature over the wall colour (the world), no floor planes
    (they stand behind the orthographic cameras and would show from this one), no compositor."""
    sc = bpy.context.scene
    for obj in studio["planes"]:
        obj.hide_render = True
    if sc.world is None:
        sc.world = bpy.data.worlds.new("mocap_studio")
    sc.world.color = mb.rgb255_to_linear(layout["colours"]["wall"])
    sc.render.film_transparent = False
    sc.render.use_compositing = False
    sc.use_nodes = False
    sc.render.image_settings.color_mode = "RGB"
    sc.display.render_aa = aa


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
    frames = sorted(set(renders["frames"])) if renders else []
    views = renders.get("views", ["front", "side"]) if renders else []
    exports = args.get("joints") is not None
    n_exports = sum(1 for k in ("glb", "bvh", "fbx") if args.get(k)) if exports else 0
    total = (T if exports else 0) + n_exports + len(frames) * len(views)
    count = {"done": 0}

    def report(stage, **extra):
        count["done"] += 1
        mb.progress(count["done"], total, stage, **extra)

    if exports:
        write_exports(bpy, args, arm, mesh, info, T, report)
    if frames and views:
        render_all(bpy, renders, layout, report)
    return {"frames": T, "rendered": frames}


mb.run(main)

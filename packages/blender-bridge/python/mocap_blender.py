"""Shared helpers for the mocap Blender scripts (Blender 3.4+ and 4.x, background mode).

Protocol with @mocap/blender-bridge: the script is started as
``blender -b --factory-startup --python-exit-code 1 --python <script> -- <args.json>``;
it reports progress and its result as lines ``@mocap {json}`` on stdout; a failure prints the
Python traceback to stderr, reports an ``error`` event and exits with code 1.
"""

import json
import math
import os
import sys
import traceback

MARK = "@mocap "


def emit(event, **fields):
    """Writes one protocol line (progress, log, result or error) to stdout."""
    fields["event"] = event
    sys.stdout.write(MARK + json.dumps(fields) + "\n")
    sys.stdout.flush()


def progress(done, total, stage, **extra):
    emit("progress", done=done, total=total, stage=stage, **extra)


def read_args():
    """The JSON arguments: the file named after ``--``."""
    argv = sys.argv
    if "--" not in argv:
        raise SystemExit("mocap: expected `-- <args.json>` after the script")
    path = argv[argv.index("--") + 1]
    with open(path, "r", encoding="utf-8") as f:
        return json.load(f)


def run(main):
    """Runs ``main(args)``; its return value is the result event. Exits 1 with a traceback on failure."""
    try:
        fix_numpy()
        result = main(read_args())
        emit("result", **(result or {}))
    except BaseException as exc:  # noqa: BLE001 - every failure must reach the bridge
        if isinstance(exc, SystemExit) and exc.code in (0, None):
            raise
        tb = traceback.format_exc()
        sys.stderr.write(tb)
        sys.stderr.flush()
        emit("error", message="%s: %s" % (type(exc).__name__, exc), traceback=tb)
        sys.stdout.flush()
        os._exit(1)


def fix_numpy():
    """Blender 3.4's glTF add-on uses ``numpy.bool``, which NumPy 1.24 removed."""
    try:
        import numpy

        if "bool" not in numpy.__dict__:
            numpy.bool = bool
    except ImportError:
        pass


def replace(tmp, final):
    """Atomic rename of a finished temporary file onto its final name."""
    os.makedirs(os.path.dirname(os.path.abspath(final)), exist_ok=True)
    os.replace(tmp, final)


def tmp_name(final, ext=None):
    base, e = os.path.splitext(final)
    return "%s.tmp-%d%s" % (base, os.getpid(), ext if ext is not None else e)


def save_blend(bpy, path):
    """Saves the open file as ``path`` atomically (temporary name, then rename)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = tmp_name(path, ".blend")
    bpy.ops.wm.save_as_mainfile(filepath=tmp, copy=True, compress=False)
    replace(tmp, path)


def srgb_to_linear(c):
    """One sRGB channel in 0..1 to linear."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def rgb255_to_linear(rgb):
    return tuple(srgb_to_linear(v / 255.0) for v in rgb)


# --- the two-view layout --------------------------------------------------------------------

def view_size(layout, view):
    return (layout["W_FRONT"] if view == "front" else layout["W_SIDE"]), layout["HEIGHT"]


def setup_cameras(bpy, layout):
    """Two orthographic cameras per the layout contract; returns {'front': obj, 'side': obj}."""
    m = layout["M_PER_PX"]
    h = layout["HEIGHT"]
    zc = (layout["GROUND_V"] - h / 2.0) * m
    dist = 60.0
    cams = {}
    for view in ("front", "side"):
        w, _ = view_size(layout, view)
        data = bpy.data.cameras.new("mocap_" + view)
        data.type = "ORTHO"
        data.ortho_scale = max(w, h) * m
        data.sensor_fit = "AUTO"
        data.clip_start = 0.1
        data.clip_end = 2 * dist
        obj = bpy.data.objects.new("mocap_" + view, data)
        bpy.context.scene.collection.objects.link(obj)
        if view == "front":
            obj.location = (layout["FRONT_CX"], -dist, zc)
            obj.rotation_euler = (math.pi / 2, 0.0, 0.0)
        else:
            obj.location = (-dist, layout["SIDE_CY"], zc)
            obj.rotation_euler = (math.pi / 2, 0.0, -math.pi / 2)
        cams[view] = obj
    return cams


def setup_render(bpy, layout, aa="8", transparent=False):
    """Workbench, Standard view transform, no dither, transparent film over the studio backdrop
    (or, with ``transparent``, RGBA images without a backdrop and no compositing)."""
    import numpy as np

    sc = bpy.context.scene
    sc.render.engine = "BLENDER_WORKBENCH"
    sh = sc.display.shading
    sh.light = "STUDIO"
    sh.color_type = "VERTEX"
    sh.show_shadows = False
    sh.show_cavity = False
    sc.display.render_aa = aa
    sc.view_settings.view_transform = "Standard"
    sc.view_settings.look = "None"
    sc.view_settings.exposure = 0.0
    sc.view_settings.gamma = 1.0
    sc.render.dither_intensity = 0.0
    sc.render.film_transparent = True
    sc.render.resolution_percentage = 100
    sc.render.use_compositing = not transparent
    sc.render.use_sequencer = False
    img = sc.render.image_settings
    img.file_format = "PNG"
    img.color_mode = "RGBA" if transparent else "RGB"
    img.color_depth = "8"
    img.compression = 15
    sc.use_nodes = True
    tree = sc.node_tree
    for n in list(tree.nodes):
        tree.nodes.remove(n)
    layers = tree.nodes.new("CompositorNodeRLayers")
    backdrop = tree.nodes.new("CompositorNodeImage")
    over = tree.nodes.new("CompositorNodeAlphaOver")
    out = tree.nodes.new("CompositorNodeComposite")
    tree.links.new(backdrop.outputs["Image"], over.inputs[1])
    tree.links.new(layers.outputs["Image"], over.inputs[2])
    tree.links.new(over.outputs["Image"], out.inputs["Image"])
    studio = {"node": backdrop, "images": {}}
    for view in ("front", "side"):
        w, h = view_size(layout, view)
        add_backdrop(bpy, studio, view, w, h, layout, layout["GROUND_V"])
    return studio


def add_backdrop(bpy, studio, key, w, h, layout, ground_v=None):
    """A w x h backdrop image: the studio wall, and the floor band below row ``ground_v`` if given."""
    import numpy as np

    wall = rgb255_to_linear(layout["colours"]["wall"])
    floor = rgb255_to_linear(layout["colours"]["floor"])
    im = bpy.data.images.new("mocap_backdrop_" + key, w, h, alpha=True, float_buffer=True)
    for space in ("Linear", "Linear Rec.709"):  # Blender 3.x, 4.x
        try:
            im.colorspace_settings.name = space
            break
        except TypeError:
            continue
    px = np.empty((h, w, 4), np.float32)
    # Blender rows go bottom-up: image row r is layout row v = h - 1 - r. A pixel belongs to the
    # floor band when its centre lies below the ground line.
    v = (h - 1 - np.arange(h)) + 0.5
    is_floor = v > (ground_v if ground_v is not None else h + 1)
    px[:, :, 3] = 1.0
    for c in range(3):
        px[:, :, c] = np.where(is_floor[:, None], floor[c], wall[c])
    im.pixels.foreach_set(px.ravel())
    im.pack()
    studio["images"][key] = im


def render_view(bpy, cams, studio, layout, view, path):
    """Renders one view to ``path`` (PNG, written under a temporary name, then renamed)."""
    w, h = view_size(layout, view)
    render_camera(bpy, cams[view], studio, view, w, h, path)


def setup_showcase(bpy, studio, layout, camera, size):
    """The 3/4 perspective camera of creature.json (`location`, `target`, `lens_mm`), wall backdrop."""
    from mathutils import Vector

    data = bpy.data.cameras.new("mocap_showcase")
    data.type = "PERSP"
    data.lens = camera.get("lens_mm", 50)
    data.clip_start = 0.05
    data.clip_end = 200.0
    obj = bpy.data.objects.new("mocap_showcase", data)
    bpy.context.scene.collection.objects.link(obj)
    obj.location = Vector(camera["location"])
    direction = Vector(camera["target"]) - obj.location
    obj.rotation_euler = direction.to_track_quat("-Z", "Y").to_euler()
    add_backdrop(bpy, studio, "showcase", size[0], size[1], layout)
    return obj


def render_camera(bpy, cam, studio, key, w, h, path):
    """Renders camera ``cam`` at w x h over backdrop ``key`` to ``path`` (temporary name, then rename)."""
    sc = bpy.context.scene
    sc.render.resolution_x = w
    sc.render.resolution_y = h
    sc.camera = cam
    studio["node"].image = studio["images"][key]
    tmp = tmp_name(path, ".png")
    sc.render.filepath = tmp
    bpy.ops.render.render(write_still=True)
    replace(tmp, path)


def project(layout, p):
    """World point -> (front uv, side uv) in full-frame layout px (the TS worldToFront/worldToSide)."""
    m = layout["M_PER_PX"]
    v = layout["GROUND_V"] - p[2] / m
    fu = layout["W_FRONT"] / 2.0 + (p[0] - layout["FRONT_CX"]) / m
    su = layout["W_FRONT"] + layout["W_SIDE"] / 2.0 - (p[1] - layout["SIDE_CY"]) / m
    return [fu, v], [su, v]


# --- rig helpers ----------------------------------------------------------------------------

def find_armature(bpy):
    arms = [o for o in bpy.data.objects if o.type == "ARMATURE"]
    if len(arms) != 1:
        raise RuntimeError("expected one armature in the rigged file, found %d" % len(arms))
    return arms[0]


def find_mesh(bpy):
    meshes = [o for o in bpy.data.objects if o.type == "MESH" and not o.name.startswith("mocap_")]
    if len(meshes) != 1:
        raise RuntimeError("expected one creature mesh, found %d" % len(meshes))
    return meshes[0]


def keypoint_positions(arm, keypoints):
    """Armature-space joint positions of the posed rig (call after a depsgraph update)."""
    mw = arm.matrix_world
    out = []
    for k in keypoints:
        pb = arm.pose.bones[k["bone"]]
        p = mw @ (pb.head if k["end"] == "head" else pb.tail)
        out.append([p.x, p.y, p.z])
    return out


def pose_rig(arm, root, bones, euler, trans, root_quat):
    """Poses the rig by motion.json's conventions (see @mocap/layout MotionJson)."""
    from mathutils import Quaternion, Vector

    root_pb = arm.pose.bones[root]
    rest = root_pb.bone.matrix_local.to_quaternion()
    q = Quaternion(root_quat)
    root_pb.rotation_mode = "QUATERNION"
    root_pb.rotation_quaternion = rest.inverted() @ q @ rest
    root_pb.location = rest.inverted() @ Vector(trans)
    for name, e in zip(bones, euler):
        if name == root:
            continue
        pb = arm.pose.bones[name]
        pb.rotation_mode = "XYZ"
        pb.rotation_euler = e

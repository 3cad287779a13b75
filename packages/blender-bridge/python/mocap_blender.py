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
    """Workbench (studio light, the `look` colour attribute), Standard view transform, no dither.

    The studio, without anti-aliasing (``aa`` "OFF", the fast path): the world colour is the wall;
    the floor band below the ground row is one plane per orthographic camera, far behind the
    creature and edge-on to the other camera, whose colour is calibrated against Workbench's
    lighting by test renders until it lands exactly. With anti-aliasing, whose jitter would blend
    the rows either side of the ground line, the creature renders on a transparent film and the
    compositor lays it over a backdrop image instead. With ``transparent``, RGBA images on a
    transparent film and no studio.
    """
    sc = bpy.context.scene
    sc.render.engine = "BLENDER_WORKBENCH"
    sh = sc.display.shading
    sh.light = "STUDIO"
    sh.color_type = "VERTEX"
    sh.show_shadows = False
    sh.show_cavity = False
    sh.show_specular_highlight = False
    sc.display.render_aa = aa
    # Anti-aliasing samples stay inside their pixel, so the floor band's pixel-aligned edge stays
    # sharp (the default 1.5 px filter would blend the rows either side of the ground line).
    sc.render.filter_size = 1.5
    sc.view_settings.view_transform = "Standard"
    sc.view_settings.look = "None"
    sc.view_settings.exposure = 0.0
    sc.view_settings.gamma = 1.0
    sc.render.dither_intensity = 0.0
    composite = aa != "OFF" and not transparent
    sc.render.film_transparent = transparent or composite
    sc.render.resolution_percentage = 100
    sc.render.use_compositing = False
    sc.render.use_sequencer = False
    sc.use_nodes = False
    img = sc.render.image_settings
    img.file_format = "PNG"
    img.color_mode = "RGBA" if transparent else "RGB"
    img.color_depth = "8"
    img.compression = 15
    studio = {"planes": [], "node": None, "images": {}, "layout": layout}
    if transparent:
        return studio
    if composite:
        setup_compositor(bpy, studio, layout)
        return studio
    if sc.world is None:
        sc.world = bpy.data.worlds.new("mocap_studio")
    sc.world.color = rgb255_to_linear(layout["colours"]["wall"])
    far, big = 50.0, 1000.0
    front = [(-big, far, -big), (big, far, -big), (big, far, 0.0), (-big, far, 0.0)]
    side = [(far, big, -big), (far, -big, -big), (far, -big, 0.0), (far, big, 0.0)]
    for name, verts in (("front", front), ("side", side)):
        me = bpy.data.meshes.new("mocap_floor_" + name)
        me.from_pydata(verts, [], [(0, 1, 2, 3)])
        me.update()
        me.attributes.new("look", "FLOAT_COLOR", "CORNER")
        set_active_colour(me, "look")
        obj = bpy.data.objects.new("mocap_floor_" + name, me)
        sc.collection.objects.link(obj)
        studio["planes"].append(obj)
    if layout["GROUND_V"] < layout["HEIGHT"] - 1:
        calibrate_floor(bpy, studio, layout)
    return studio


def setup_compositor(bpy, studio, layout):
    """Render layers over a backdrop image (alpha over), one image per view size."""
    sc = bpy.context.scene
    sc.render.use_compositing = True
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
    studio["node"] = backdrop


def backdrop_image(bpy, studio, w, h, ground_v):
    """The w x h backdrop (wall, and the floor band below row ``ground_v`` unless None), cached."""
    import numpy as np

    key = (w, h, ground_v)
    if key in studio["images"]:
        return studio["images"][key]
    layout = studio["layout"]
    wall = rgb255_to_linear(layout["colours"]["wall"])
    floor = rgb255_to_linear(layout["colours"]["floor"])
    im = bpy.data.images.new("mocap_backdrop_%dx%d" % (w, h), w, h, alpha=True, float_buffer=True)
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
    return im


def set_active_colour(me, name):
    """Makes colour attribute ``name`` the one Workbench shows (Blender 3.2+ and 4.x)."""
    try:
        me.color_attributes.active_color = me.color_attributes[name]
        me.color_attributes.render_color_index = me.color_attributes.find(name)
    except (AttributeError, KeyError):
        pass
    try:
        me.attributes.active_color = me.attributes[name]
    except (AttributeError, KeyError):
        pass


def set_floor_colour(studio, rgb_linear):
    for obj in studio["planes"]:
        obj.data.attributes["look"].data.foreach_set("color", (list(rgb_linear) + [1.0]) * 4)
        obj.data.update()


def read_pixel(bpy, path, x, y):
    """The 8-bit sRGB colour at column x, row y (from the top) of a PNG, exactly as stored."""
    import numpy as np

    im = bpy.data.images.load(path)
    try:
        im.colorspace_settings.name = "Non-Color"
        w, h = im.size
        a = np.empty(w * h * 4, np.float32)
        im.pixels.foreach_get(a)
        return [int(round(v * 255)) for v in a.reshape(h, w, 4)[h - 1 - y, x, :3]]
    finally:
        bpy.data.images.remove(im)


def calibrate_floor(bpy, studio, layout, tries=4):
    """Finds the floor planes' colour that Workbench's studio light turns into the floor colour."""
    import shutil
    import tempfile

    sc = bpy.context.scene
    target = layout["colours"]["floor"]
    lin_target = rgb255_to_linear(target)
    albedo = [min(1.0, 2.0 * c) for c in lin_target]
    hidden = [o for o in sc.objects if o not in studio["planes"] and not o.hide_render]
    for o in hidden:
        o.hide_render = True
    cams = setup_cameras(bpy, layout)
    w, h = view_size(layout, "front")
    tmp = tempfile.mkdtemp(prefix="mocap-calibrate-")
    try:
        got = None
        for _ in range(tries):
            set_floor_colour(studio, albedo)
            path = os.path.join(tmp, "floor.png")
            render_camera(bpy, cams["front"], studio, w, h, path)
            got = read_pixel(bpy, path, 0, layout["HEIGHT"] - 1)
            if got == list(target):
                break
            lin_got = [srgb_to_linear(v / 255.0) for v in got]
            albedo = [min(1.0, a * t / g) if g > 0 else a for a, t, g in zip(albedo, lin_target, lin_got)]
        if got != list(target):
            emit("log", message="floor colour calibrated to %s, wanted %s" % (got, list(target)))
    finally:
        for o in hidden:
            o.hide_render = False
        for obj in cams.values():
            data = obj.data
            bpy.data.objects.remove(obj, do_unlink=True)
            bpy.data.cameras.remove(data)
        shutil.rmtree(tmp, ignore_errors=True)


def render_view(bpy, cams, studio, layout, view, path):
    """Renders one view to ``path`` (PNG, written under a temporary name, then renamed)."""
    w, h = view_size(layout, view)
    render_camera(bpy, cams[view], studio, w, h, path, layout["GROUND_V"])


def setup_showcase(bpy, camera):
    """The 3/4 perspective camera of creature.json (`location`, `target`, `lens_mm`)."""
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
    return obj


def render_camera(bpy, cam, studio, w, h, path, ground_v=None):
    """Renders camera ``cam`` at w x h to ``path`` (temporary name, then rename); with the
    compositor, over a backdrop whose floor band starts at row ``ground_v`` (None: all wall)."""
    sc = bpy.context.scene
    if studio.get("node") is not None:
        studio["node"].image = backdrop_image(bpy, studio, w, h, ground_v)
    sc.render.resolution_x = w
    sc.render.resolution_y = h
    sc.camera = cam
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

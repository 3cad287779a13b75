"""render_ref: the rig in its rest pose from both cameras over the studio -> two view PNGs.

Args: {"rigged": path, "layout": <resolved layout>, "front": path, "side": path, "aa": "8"}.
The bridge composes the 1280 x 720 reference frame (with the divider) from the two views.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mocap_blender as mb  # noqa: E402


def main(args):
    import bpy

    bpy.ops.wm.open_mainfile(filepath=args["rigged"])
    layout = args["layout"]
    arm = mb.find_armature(bpy)
    for pb in arm.pose.bones:
        pb.rotation_mode = "QUATERNION"
        pb.rotation_quaternion = (1, 0, 0, 0)
        pb.location = (0, 0, 0)
        pb.scale = (1, 1, 1)
    bpy.context.view_layer.update()
    cams = mb.setup_cameras(bpy, layout)
    studio = mb.setup_render(bpy, layout, args.get("aa", "8"))
    mb.progress(0, 2, "render")
    mb.render_view(bpy, cams, studio, layout, "front", args["front"])
    mb.progress(1, 2, "render")
    mb.render_view(bpy, cams, studio, layout, "side", args["side"])
    mb.progress(2, 2, "render")
    return {"front": args["front"], "side": args["side"]}


mb.run(main)

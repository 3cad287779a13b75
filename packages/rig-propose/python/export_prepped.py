"""export_prepped: prep/static.blend -> the prepped mesh as a GLB, for the rig proposal to read.

Args: {"static": path, "out": path}. Exports the one mesh `creature` (world transform applied, no
materials, no skin) with glTF's +Y up, so a reader maps glTF (x, y, z) to the prepped world
(x, -z, y). Written to a temporary name, then renamed onto `out`.
"""

import os
import sys

sys.path.insert(0, os.environ.get("MOCAP_PYTHON_DIR", os.path.dirname(os.path.abspath(__file__))))
import mocap_blender as mb  # noqa: E402


def main(args):
    import bpy

    bpy.ops.wm.open_mainfile(filepath=args["static"])
    meshes = [o for o in bpy.data.objects if o.type == "MESH"]
    if not meshes:
        raise RuntimeError("%s holds no mesh" % args["static"])
    bpy.ops.object.select_all(action="DESELECT")
    for o in meshes:
        o.select_set(True)
    out = args["out"]
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = mb.tmp_name(out)
    mb.progress(0, 1, "export")
    bpy.ops.export_scene.gltf(
        filepath=tmp,
        export_format="GLB",
        use_selection=True,
        export_apply=True,
        export_materials="NONE",
        export_skins=False,
        export_animations=False,
        export_cameras=False,
        export_lights=False,
        export_yup=True,
    )
    mb.replace(tmp, out)
    mb.progress(1, 1, "export")
    return {"vertices": sum(len(o.data.vertices) for o in meshes)}


mb.run(main)

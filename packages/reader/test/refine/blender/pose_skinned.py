# Poses a skinned glTF in Blender and writes its deformed vertices (world space) to JSON.
#
# Run: blender -b --factory-startup --python pose_skinned.py -- IN.glb OUT.json ANIMATION KEY
# Imports IN.glb with Blender's own glTF importer, puts the armature on action ANIMATION at the
# frame of its KEY-th keyframe (NLA tracks muted), evaluates the depsgraph and writes, for every
# mesh vertex in Blender's order, its rest-pose and posed world position (Blender Z-up units).
#
# Test asset credits (Fox.glb, Khronos glTF sample models): CC0 low poly fox by PixelMannen
# (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0 rigging and animation by
# @tomkranis on Sketchfab (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc);
# glTF conversion by @AsoboStudio and @scurest.
import json
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # Blender 3.4's importer uses numpy.bool, removed in NumPy 1.24

src, out, anim_name, key = sys.argv[sys.argv.index("--") + 1 :]
key = int(key)
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
mesh = next(o for o in bpy.context.scene.objects if o.type == "MESH")
action = next(a for a in bpy.data.actions if a.name.split("_")[0] == anim_name or a.name == anim_name)
ad = arm.animation_data or arm.animation_data_create()
for track in ad.nla_tracks:
    track.mute = True
ad.action = action
frames = sorted({round(p.co[0], 6) for fc in action.fcurves for p in fc.keyframe_points})
frame = frames[key]
bpy.context.scene.frame_set(int(frame), subframe=frame - int(frame))


def world_verts():
    dg = bpy.context.evaluated_depsgraph_get()
    ev = mesh.evaluated_get(dg)
    m = ev.to_mesh()
    mw = ev.matrix_world
    co = [c for v in m.vertices for c in (mw @ v.co)]
    ev.to_mesh_clear()
    return co


posed = world_verts()
arm.data.pose_position = "REST"
rest = world_verts()
arm.data.pose_position = "POSE"
with open(out, "w") as f:
    json.dump(
        {
            "action": action.name,
            "frame": frame,
            "first_frame": frames[0],
            "fps": bpy.context.scene.render.fps / bpy.context.scene.render.fps_base,
            "rest": rest,
            "posed": posed,
        },
        f,
    )

# Round trip of Blender's pose convention through its glTF exporter.
#
# Run: blender -b --factory-startup --python export_posed.py -- IN.glb OUT.glb OUT.json SEED
# Imports IN.glb, exports the armature + mesh again with Blender's own exporter (Y up, rest pose,
# no animation) to OUT.glb, then sets every pose bone's rotation_euler (mode XYZ) to seeded
# random angles (+-0.4 rad), evaluates the depsgraph and writes the bone names, the angles and
# the deformed vertices (world, Z up) with their rest positions to OUT.json.
#
# Test asset credits (Fox.glb, Khronos glTF sample models): CC0 low poly fox by PixelMannen
# (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0 rigging and animation by
# @tomkranis on Sketchfab (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc);
# glTF conversion by @AsoboStudio and @scurest.
import json
import random
import sys

import bpy
import numpy

if not hasattr(numpy, "bool"):
    numpy.bool = bool  # Blender 3.4's importer uses numpy.bool, removed in NumPy 1.24

src, out_glb, out_json, seed = sys.argv[sys.argv.index("--") + 1 :]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
mesh = next(o for o in bpy.context.scene.objects if o.type == "MESH")
if arm.animation_data:
    arm.animation_data.action = None
    for track in list(arm.animation_data.nla_tracks):
        arm.animation_data.nla_tracks.remove(track)
for pb in arm.pose.bones:
    pb.rotation_mode = "XYZ"
    pb.rotation_euler = (0, 0, 0)
    pb.location = (0, 0, 0)
bpy.context.view_layer.update()
bpy.ops.object.select_all(action="DESELECT")
arm.select_set(True)
mesh.select_set(True)
bpy.context.view_layer.objects.active = arm
bpy.ops.export_scene.gltf(
    filepath=out_glb, export_format="GLB", use_selection=True, export_animations=False, export_yup=True
)
rng = random.Random(int(seed))
euler = {}
for pb in arm.pose.bones:
    e = [rng.uniform(-0.4, 0.4) for _ in range(3)]
    pb.rotation_euler = e
    euler[pb.name] = e
bpy.context.view_layer.update()


def world_verts():
    dg = bpy.context.evaluated_depsgraph_get()
    ev = mesh.evaluated_get(dg)
    m = ev.to_mesh()
    co = [c for v in m.vertices for c in (ev.matrix_world @ v.co)]
    ev.to_mesh_clear()
    return co


posed = world_verts()
arm.data.pose_position = "REST"
rest = world_verts()
with open(out_json, "w") as f:
    json.dump({"euler": euler, "posed": posed, "rest": rest}, f)

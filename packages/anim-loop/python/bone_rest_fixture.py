"""Writes Blender's bone.matrix_local for a set of head / tail / roll cases (the fixture of
@mocap/anim-loop's boneRestMatrix test).

Run: blender -b --factory-startup --python-exit-code 1 --python python/bone_rest_fixture.py -- OUT_DIR
(writes OUT_DIR/bone-rest.json)

Bones are root bones of an armature object with identity transform, except a short chain at the
end (parented, not connected) that checks children read back the same. Inputs are written as
Blender stores them (float32), so the check compares like with like.
"""
import json
import math
import os
import random
import sys

import bpy

out_path = os.path.join(sys.argv[sys.argv.index("--") + 1], "bone-rest.json")

cases = []


def add(name, head, tail, roll, parent=None):
    cases.append((name, head, tail, roll, parent))


axes = {"px": (1, 0, 0), "nx": (-1, 0, 0), "py": (0, 1, 0), "ny": (0, -1, 0), "pz": (0, 0, 1), "nz": (0, 0, -1)}
for key, d in axes.items():
    for roll in (0.0, 0.7, -2.5):
        add(f"axis_{key}_{roll}", (0.1, 0.2, 0.3), tuple(0.1 * (i + 1) + 0.5 * d[i] for i in range(3)), roll)
# Near -Y: inside the critical cone, between critical and safe, just outside safe.
for eps in (1e-5, 1e-4, 2e-4, 5e-4, 2e-3, 5e-2, 0.11, 0.2):
    for roll in (0.0, 1.1):
        add(f"near_ny_{eps}_{roll}", (0, 0, 1), (eps, -1, 1 + 0.5 * eps), roll)
        add(f"near_ny_z_{eps}_{roll}", (0, 0, 1), (0, -1, 1 + eps), roll)
# Near-vertical bones (legs, necks): up and down with a small lean.
for eps in (0.0, 1e-4, 1e-2, 0.1):
    for roll in (0.0, -0.4, 3.0):
        add(f"vert_up_{eps}_{roll}", (0.2, -0.1, 0.5), (0.2 + eps, -0.1 - eps, 0.9), roll)
        add(f"vert_down_{eps}_{roll}", (0.2, -0.1, 0.5), (0.2 - eps, -0.1 + 0.5 * eps, 0.1), roll)
rnd = random.Random(7)
for i in range(24):
    h = tuple(rnd.uniform(-1, 1) for _ in range(3))
    d = tuple(rnd.gauss(0, 1) for _ in range(3))
    n = math.sqrt(sum(x * x for x in d))
    length = rnd.uniform(0.05, 0.6)
    add(f"random_{i}", h, tuple(h[k] + length * d[k] / n for k in range(3)), rnd.uniform(-math.pi, math.pi))
# A chain: children read back in armature space.
add("chain_0", (0, 0, 0.5), (0, -0.3, 0.6), 0.2)
add("chain_1", (0, -0.3, 0.6), (0.05, -0.5, 0.3), -0.6, "chain_0")
add("chain_2", (0.05, -0.5, 0.3), (0.05, -0.52, 0.02), 1.3, "chain_1")

arm = bpy.data.armatures.new("FixtureArmature")
obj = bpy.data.objects.new("FixtureArmature", arm)
bpy.context.scene.collection.objects.link(obj)
bpy.context.view_layer.objects.active = obj
bpy.ops.object.mode_set(mode="EDIT")
for name, head, tail, roll, parent in cases:
    eb = arm.edit_bones.new(name)
    eb.head = head
    eb.tail = tail
    eb.roll = roll
    if parent is not None:
        eb.parent = arm.edit_bones[parent]
        eb.use_connect = False
stored = {eb.name: {"head": list(eb.head), "tail": list(eb.tail), "roll": eb.roll} for eb in arm.edit_bones}
bpy.ops.object.mode_set(mode="OBJECT")

rows = []
for name, _head, _tail, _roll, parent in cases:
    bone = arm.bones[name]
    rows.append(
        {
            "name": name,
            "parent": parent,
            "head": stored[name]["head"],
            "tail": stored[name]["tail"],
            "roll": stored[name]["roll"],
            "matrix_local": [list(r) for r in bone.matrix_local],
        }
    )
with open(out_path, "w") as f:
    f.write('{"blender": %s, "bones": [\n' % json.dumps(bpy.app.version_string))
    f.write(",\n".join(json.dumps(r) for r in rows))
    f.write("\n]}\n")
print(f"bone_rest_fixture: wrote {len(rows)} bones to {out_path}")

"""Writes what Blender's mathutils does with Euler angles in all six rotation modes (the
fixture of @mocap/anim-loop's Euler tests): Euler -> matrix, Euler -> quaternion (WXYZ),
matrix -> Euler, and matrix -> Euler compatible with a given Euler (to_euler(order, compat)).

Run: blender -b --factory-startup --python-exit-code 1 --python python/euler_fixture.py -- OUT_DIR
(writes OUT_DIR/euler-blender.json). mathutils stores floats in 32 bits: inputs are written as
Blender holds them.
"""
import json
import math
import os
import random
import sys

from mathutils import Euler

out_dir = sys.argv[sys.argv.index("--") + 1]
rnd = random.Random(11)
rows = []
for order in ("XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"):
    for i in range(16):
        eu = Euler([rnd.uniform(-math.pi, math.pi) for _ in range(3)], order)
        e = list(eu)
        m = eu.to_matrix()
        # The same rotation with whole turns added, and a compat Euler near that representation.
        k = [rnd.randint(-2, 2) for _ in range(3)]
        compat = [e[j] + 2 * math.pi * k[j] + rnd.uniform(-0.05, 0.05) for j in range(3)]
        rows.append(
            {
                "order": order,
                "euler": e,
                "matrix": [list(r) for r in m],
                "quat_wxyz": list(eu.to_quaternion()),
                "to_euler": list(m.to_euler(order)),
                "compat": compat,
                "to_euler_compat": list(m.to_euler(order, Euler(compat, order))),
            }
        )
path = os.path.join(out_dir, "euler-blender.json")
with open(path, "w") as f:
    f.write('{"blender": %s, "cases": [\n' % json.dumps(__import__("bpy").app.version_string))
    f.write(",\n".join(json.dumps(r) for r in rows))
    f.write("\n]}\n")
print(f"euler_fixture: wrote {len(rows)} cases to {path}")

// Uses the Khronos glTF sample model Fox (creatures/fox/model.glb, a copy of ../shared/fixtures/fox/Fox.glb). Credits: CC0 low
// poly fox by PixelMannen (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0 rigging and
// animation by @tomkranis on Sketchfab (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc);
// glTF conversion by @AsoboStudio and @scurest.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSkinnedMesh } from '@mocap/reader';
import {
  blenderEulerFromJointPose,
  blenderRootMotion,
  jointPoseFromBlenderEuler,
  jointWorldMatrices,
  linearBlendSkin,
  restJointPose,
  skinningMatrices,
} from '@mocap/reader/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOX } from './fox-fixture.js';
import { blenderEulerRoundTrip } from './run-blender.js';

describe('Blender pose-bone Euler <-> glTF joint pose (Blender 3.4 exporter)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'refine-euler-'));
  const glb = join(dir, 'fox-blender.glb');
  let blender: ReturnType<typeof blenderEulerRoundTrip>;
  beforeAll(() => {
    blender = blenderEulerRoundTrip(FOX, glb, 5);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("skinning the exporter's glb at q_rest * q(euler) lands on Blender's posed vertices (1e-3 units)", async () => {
    const mesh = await readSkinnedMesh(glb);
    const euler = new Float64Array(mesh.jointNames.length * 3);
    const skip = new Set<number>();
    mesh.jointNames.forEach((n, j) => {
      const e = blender.euler[n];
      if (e) euler.set(e, 3 * j);
      else skip.add(j);
    });
    expect(skip.size).toBe(0);
    const pose = jointPoseFromBlenderEuler(restJointPose(mesh), mesh.rest, euler);
    const world = jointWorldMatrices(new Float64Array(mesh.jointNames.length * 16), mesh, pose, mesh.toWorld);
    const skin = skinningMatrices(new Float64Array(mesh.jointNames.length * 16), mesh, world);
    const ours = linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
    const restWorld = jointWorldMatrices(
      new Float64Array(mesh.jointNames.length * 16),
      mesh,
      restJointPose(mesh),
      mesh.toWorld,
    );
    const rest = linearBlendSkin(
      new Float64Array(mesh.vertexCount * 3),
      mesh,
      skinningMatrices(new Float64Array(mesh.jointNames.length * 16), mesh, restWorld),
    );
    // The exporter splits and reorders vertices: each Blender vertex is matched to the exported
    // vertex at its rest position (copies of one Blender vertex share its weights).
    const nb = blender.rest.length / 3;
    let worst = 0;
    let moved = 0;
    for (let i = 0; i < nb; i++) {
      let best = -1;
      let bestD = Number.POSITIVE_INFINITY;
      for (let v = 0; v < mesh.vertexCount; v++) {
        const d = Math.hypot(
          rest[3 * v] - blender.rest[3 * i],
          rest[3 * v + 1] - blender.rest[3 * i + 1],
          rest[3 * v + 2] - blender.rest[3 * i + 2],
        );
        if (d < bestD) {
          bestD = d;
          best = v;
        }
      }
      expect(bestD).toBeLessThan(1e-3);
      const d = Math.hypot(
        ours[3 * best] - blender.posed[3 * i],
        ours[3 * best + 1] - blender.posed[3 * i + 1],
        ours[3 * best + 2] - blender.posed[3 * i + 2],
      );
      worst = Math.max(worst, d);
      moved = Math.max(
        moved,
        Math.hypot(
          blender.posed[3 * i] - blender.rest[3 * i],
          blender.posed[3 * i + 1] - blender.rest[3 * i + 1],
          blender.posed[3 * i + 2] - blender.rest[3 * i + 2],
        ),
      );
    }
    expect(moved).toBeGreaterThan(10);
    expect(worst).toBeLessThan(1e-3);
    // and back: the Euler angles of the pose are Blender's
    const back = blenderEulerFromJointPose(new Float64Array(euler.length), mesh.rest, pose);
    for (let k = 0; k < euler.length; k++) expect(back[k]).toBeCloseTo(euler[k], 9);
  });

  it('blenderRootMotion: root_quat and trans reproduce the joints when only the root turns and moves', async () => {
    const mesh = await readSkinnedMesh(glb);
    const nj = mesh.jointNames.length;
    const root = mesh.order[0];
    const euler = new Float64Array(nj * 3);
    euler.set([0.3, -0.2, 0.5], 3 * root);
    const pose = jointPoseFromBlenderEuler(restJointPose(mesh), mesh.rest, euler);
    const shifted = mesh.toWorld.slice();
    shifted[12] += 0.1;
    shifted[13] -= 0.2;
    shifted[14] += 0.05;
    const rw = jointWorldMatrices(new Float64Array(nj * 16), mesh, mesh.rest, mesh.toWorld);
    const pw = jointWorldMatrices(new Float64Array(nj * 16), mesh, pose, shifted);
    const { rootQuatWxyz: q, trans } = blenderRootMotion(rw, pw, root);
    expect(trans[0]).toBeCloseTo(0.1, 9);
    expect(trans[1]).toBeCloseTo(-0.2, 9);
    expect(trans[2]).toBeCloseTo(0.05, 9);
    const R = quatToMat(q);
    const o = 16 * root;
    for (let k = 0; k < nj; k++) {
      const d = [0, 1, 2].map((c) => rw[16 * k + 12 + c] - rw[o + 12 + c]);
      for (let r = 0; r < 3; r++) {
        const want = pw[o + 12 + r] + R[r][0] * d[0] + R[r][1] * d[1] + R[r][2] * d[2];
        expect(Math.abs(pw[16 * k + 12 + r] - want)).toBeLessThan(1e-6 * (1 + Math.abs(want)));
      }
    }
  });
});

/** Rotation matrix (rows) of a W, X, Y, Z quaternion, written out independently. */
function quatToMat([w, x, y, z]: number[]): number[][] {
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

import type { SkinnedMesh } from '@mocap/reader';
import {
  jointWorldMatrices,
  keepSideViewSwing,
  restLateralAxes,
  restRefinePose,
} from '@mocap/reader/internal';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFox } from './fox-fixture.js';
import { turn } from './turn-joint.js';

const TAIL = ['b_Tail01_012', 'b_Tail02_013', 'b_Tail03_014'];

function origins(mesh: SkinnedMesh, rotation: Float64Array): Float64Array {
  const pose = restRefinePose(mesh).pose;
  pose.rotation.set(rotation);
  const world = jointWorldMatrices(new Float64Array(mesh.jointNames.length * 16), mesh, pose, mesh.toWorld);
  return Float64Array.from(mesh.jointNames.flatMap((_, j) => [12, 13, 14].map((c) => world[16 * j + c])));
}

describe('keepSideViewSwing', () => {
  let mesh: SkinnedMesh;
  let tail: number[];
  beforeAll(async () => {
    mesh = await readFox();
    tail = TAIL.map((n) => mesh.jointNames.indexOf(n));
  });

  it('restLateralAxes: each joint axis is the layout x axis seen from its parent at rest', () => {
    const axes = restLateralAxes(mesh);
    const world = jointWorldMatrices(
      new Float64Array(mesh.jointNames.length * 16),
      mesh,
      mesh.rest,
      mesh.toWorld,
    );
    for (let j = 0; j < mesh.jointNames.length; j++) {
      const p = mesh.parent[j];
      const a = axes.subarray(3 * j, 3 * j + 3);
      if (p < 0) {
        expect([...a]).toEqual([0, 0, 0]);
        continue;
      }
      // The parent's rest rotation applied to the axis (columns normalised) is (1, 0, 0).
      const x = [0, 1, 2].map((r) => {
        let v = 0;
        for (let c = 0; c < 3; c++) {
          const n = Math.hypot(world[16 * p + 4 * c], world[16 * p + 4 * c + 1], world[16 * p + 4 * c + 2]);
          v += (world[16 * p + 4 * c + r] / n) * a[c];
        }
        return v;
      });
      expect(x[0]).toBeCloseTo(1, 9);
      expect(x[1]).toBeCloseTo(0, 9);
      expect(x[2]).toBeCloseTo(0, 9);
    }
  });

  it('removes the sideways swing of a chain: every joint below keeps its rest x', () => {
    const state = restRefinePose(mesh);
    const q = state.pose.rotation;
    const k = 1 / Math.sqrt(3);
    turn(q, tail[0], [k, k, k], 0.4);
    turn(q, tail[1], [k, -k, k], 0.3);
    turn(q, tail[2], [0.3, 0.8, 0.52], 0.5);
    const rest = origins(mesh, mesh.rest.rotation);
    const before = origins(mesh, q);
    const last = tail[2];
    expect(Math.abs(before[3 * last] - rest[3 * last])).toBeGreaterThan(0.02);
    keepSideViewSwing(state, mesh, tail, restLateralAxes(mesh));
    const after = origins(mesh, q);
    for (const j of tail) {
      expect(after[3 * j]).toBeCloseTo(rest[3 * j], 9);
      expect(Math.hypot(q[4 * j], q[4 * j + 1], q[4 * j + 2], q[4 * j + 3])).toBeCloseTo(1, 12);
    }
    // The side view's swing stays: the chain still bends in the y-z plane.
    expect(
      Math.hypot(after[3 * last + 1] - rest[3 * last + 1], after[3 * last + 2] - rest[3 * last + 2]),
    ).toBeGreaterThan(0.01);
  });

  it('keeps a rotation about the lateral axis exactly, is idempotent and leaves other joints alone', () => {
    const axes = restLateralAxes(mesh);
    const state = restRefinePose(mesh);
    const q = state.pose.rotation;
    const j = tail[1];
    // A twist about the lateral axis in the parent's frame: q = t * rest.
    const a = axes.subarray(3 * j, 3 * j + 3);
    const s = Math.sin(0.35 / 2);
    const t = [a[0] * s, a[1] * s, a[2] * s, Math.cos(0.35 / 2)];
    const r = mesh.rest.rotation.subarray(4 * j, 4 * j + 4);
    q[4 * j] = t[3] * r[0] + t[0] * r[3] + t[1] * r[2] - t[2] * r[1];
    q[4 * j + 1] = t[3] * r[1] - t[0] * r[2] + t[1] * r[3] + t[2] * r[0];
    q[4 * j + 2] = t[3] * r[2] + t[0] * r[1] - t[1] * r[0] + t[2] * r[3];
    q[4 * j + 3] = t[3] * r[3] - t[0] * r[0] - t[1] * r[1] - t[2] * r[2];
    turn(q, 0, [0, 1, 0], 0.2);
    const want = Float64Array.from(q);
    keepSideViewSwing(state, mesh, [j], axes);
    for (let i = 0; i < q.length; i++) expect(q[i]).toBeCloseTo(want[i], 12);
    turn(q, j, [0, 0, 1], 0.3);
    keepSideViewSwing(state, mesh, [j], axes);
    const once = Float64Array.from(q);
    keepSideViewSwing(state, mesh, [j], axes);
    for (let i = 0; i < q.length; i++) expect(q[i]).toBeCloseTo(once[i], 12);
    expect(q[0]).toBe(want[0]);
  });
});

import type { SkinnedMesh } from '@mocap/reader';
import { flipLateral, jointPositions, LateralFlips, restRefinePose } from '@mocap/reader/internal';
import { beforeAll, describe, expect, it } from 'vitest';
import { readFox } from './fox-fixture.js';
import { turn } from './turn-joint.js';

let mesh: SkinnedMesh;

beforeAll(async () => {
  mesh = await readFox();
});

describe('flipLateral', () => {
  it("mirrors a carried point's sideways offset from the joint and keeps its forward offset and height", () => {
    const neck = mesh.jointNames.indexOf('b_Neck_04');
    const head = mesh.jointNames.indexOf('b_Head_05');
    const hip = mesh.jointNames.indexOf('b_Hip_01');
    const state = restRefinePose(mesh);
    // turn the neck 50 degrees about whichever of its own axes swings the head sideways most
    const q0 = Float64Array.from(state.pose.rotation);
    const sideways = (axis: number) => {
      state.pose.rotation.set(q0);
      turn(
        state.pose.rotation,
        neck,
        [0, 1, 2].map((c) => (c === axis ? 1 : 0)) as [number, number, number],
        (50 * Math.PI) / 180,
      );
      const p = jointPositions(new Float64Array(mesh.jointNames.length * 3), mesh, state);
      return Math.abs(p[3 * head] - p[3 * neck]);
    };
    const axis = [0, 1, 2].reduce((best, a) => (sideways(a) > sideways(best) ? a : best), 0);
    sideways(axis);
    const before = jointPositions(new Float64Array(mesh.jointNames.length * 3), mesh, state);
    const d0 = [0, 1, 2].map((c) => before[3 * head + c] - before[3 * neck + c]);
    expect(Math.abs(d0[0])).toBeGreaterThan(0.02);
    const world = new Float64Array(mesh.jointNames.length * 16);
    flipLateral(state, mesh, neck, before.subarray(3 * head, 3 * head + 3), world);
    const after = jointPositions(new Float64Array(mesh.jointNames.length * 3), mesh, state);
    const d1 = [0, 1, 2].map((c) => after[3 * head + c] - after[3 * neck + c]);
    expect(d1[0]).toBeCloseTo(-d0[0], 9);
    expect(d1[1]).toBeCloseTo(d0[1], 9);
    expect(d1[2]).toBeCloseTo(d0[2], 9);
    // the neck itself and what it does not carry stay
    for (const j of [neck, hip])
      for (let c = 0; c < 3; c++) expect(after[3 * j + c]).toBeCloseTo(before[3 * j + c], 12);
    // flipped twice: back where it was
    flipLateral(state, mesh, neck, after.subarray(3 * head, 3 * head + 3), world);
    const again = jointPositions(new Float64Array(mesh.jointNames.length * 3), mesh, state);
    for (let i = 0; i < again.length; i++) expect(again[i]).toBeCloseTo(before[i], 9);
  });

  it('refuses a root joint, naming it', () => {
    const root = mesh.parent.indexOf(-1);
    expect(() =>
      flipLateral(restRefinePose(mesh), mesh, root, [0, 0, 0], new Float64Array(mesh.jointNames.length * 16)),
    ).toThrow(/is a root joint/);
  });
});

describe('LateralFlips', () => {
  const RULES = { gatePx: 40, frames: 3, minConf: 0.15, minPx: 10, minShare: 0.4, cooldown: 10 };
  // keypoint 0: its pivot at u = 200, 100 px from it; the model's keypoint 50 px right of the pivot
  const observe = (f: LateralFlips, u: number, c = 0.3, d = 90, modelU = 250) =>
    f.observe(0, u, 300, c, d, modelU, 200, 100);

  it('a front peak held on the other side of the pivot is flipped on its third frame running', () => {
    const flips = new LateralFlips(1, RULES);
    // the first frame has no last position to hold still against
    expect([0, 1, 2, 3].map((t) => observe(flips, 150 + t))).toEqual([false, false, false, true]);
    flips.settle(0, true);
    expect(observe(flips, 154)).toBe(false);
  });

  it('never on the same side, under 0.4 of the reach or 10 px, faint, inside the gate or jumping', () => {
    const cases: [number, number?, number?, number?][] = [
      [250], // same side as the model
      [170], // 30 px off the pivot: under 0.4 of the 100 px reach
      [150, 0.1], // faint
      [150, 0.3, 30], // inside the gate
      [150, 0.3, 90, 230], // the model only 30 px off the pivot
    ];
    for (const [u, c, d, m] of cases) {
      const flips = new LateralFlips(1, RULES);
      expect([0, 1, 2, 3, 4].some(() => observe(flips, u, c, d, m))).toBe(false);
    }
    const jumping = new LateralFlips(1, RULES);
    expect([0, 1, 2, 3, 4].some((t) => observe(jumping, 150 - 50 * (t % 2)))).toBe(false);
  });

  it('a refused flip waits the cooldown', () => {
    const flips = new LateralFlips(1, { ...RULES, cooldown: 5 });
    for (let t = 0; t < 4; t++) observe(flips, 150);
    flips.settle(0, false);
    expect(Array.from({ length: 7 }, () => observe(flips, 150))).toEqual([
      false,
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });
});

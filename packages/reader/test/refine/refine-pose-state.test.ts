import {
  applyPoseStep,
  copyRefinePose,
  jointPositions,
  predictRefinePose,
  restRefinePose,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { readFox } from './fox-fixture.js';

describe('refine pose state', () => {
  it('applyPoseStep turns a joint in its own frame (q <- q exp(delta)) and moves the translation', async () => {
    const mesh = await readFox();
    const s = restRefinePose(mesh);
    const j = mesh.jointNames.indexOf('b_Neck_04');
    const q0 = Array.from(s.pose.rotation.subarray(4 * j, 4 * j + 4));
    const delta = new Float64Array(6);
    delta[0] = 0.1;
    delta[3] = Math.PI / 2; // about the joint's own x
    const out = applyPoseStep(restRefinePose(mesh), s, Int32Array.of(j), delta);
    const h = Math.SQRT1_2;
    const [x, y, z, w] = q0;
    // q0 * (sin 45, 0, 0, cos 45), XYZW
    const want = [w * h + x * h, y * h + z * h, z * h - y * h, w * h - x * h];
    want.forEach((v, k) => {
      expect(out.pose.rotation[4 * j + k]).toBeCloseTo(v, 12);
    });
    expect(out.translation[0]).toBeCloseTo(0.1, 12);
    expect(s.translation[0]).toBe(0); // the input is left alone
  });

  it('jointPositions follows the translation and names a short output', async () => {
    const mesh = await readFox();
    const s = restRefinePose(mesh);
    const a = jointPositions(new Float64Array(72), mesh, s);
    const moved = copyRefinePose(restRefinePose(mesh), s);
    moved.translation.set([0.1, -0.2, 0.05]);
    const b = jointPositions(new Float64Array(72), mesh, moved);
    for (let k = 0; k < 24; k++) {
      expect(b[3 * k] - a[3 * k]).toBeCloseTo(0.1, 12);
      expect(b[3 * k + 1] - a[3 * k + 1]).toBeCloseTo(-0.2, 12);
      expect(b[3 * k + 2] - a[3 * k + 2]).toBeCloseTo(0.05, 12);
    }
    // the Fox stands on the ground, its head up front (-y) and above the hips
    const head = mesh.jointNames.indexOf('b_Head_05');
    const hip = mesh.jointNames.indexOf('b_Hip_01');
    expect(a[3 * head + 1]).toBeLessThan(a[3 * hip + 1]);
    expect(a[3 * head + 2]).toBeGreaterThan(a[3 * hip + 2]);
    expect(() => jointPositions(new Float64Array(3), mesh, s)).toThrow(
      /jointPositions: expected an output of 72 values, got 3/,
    );
  });
  it("predictRefinePose repeats the last frame's motion: the same step again, in each joint's own frame", async () => {
    const mesh = await readFox();
    const joints = Int32Array.of(mesh.jointNames.indexOf('b_Neck_04'), mesh.jointNames.indexOf('b_Hip_01'));
    const delta = Float64Array.of(0.02, -0.01, 0.005, 0.3, -0.2, 0.1, -0.4, 0.25, 0.05);
    const s0 = restRefinePose(mesh);
    s0.translation.set([0.1, 0.2, 0.3]);
    const s1 = applyPoseStep(restRefinePose(mesh), s0, joints, delta);
    const s2 = applyPoseStep(restRefinePose(mesh), s1, joints, delta);
    const p = predictRefinePose(restRefinePose(mesh), s0, s1);
    for (let k = 0; k < 3; k++) expect(p.translation[k]).toBeCloseTo(s2.translation[k], 12);
    for (let i = 0; i < p.pose.rotation.length; i++)
      expect(p.pose.rotation[i]).toBeCloseTo(s2.pose.rotation[i], 12);
    expect(s1.translation[0]).toBeCloseTo(0.12, 12); // the inputs are left alone
    // a quaternion's sign does not matter: the shorter way round, and still in place (out = last)
    const flipped = copyRefinePose(restRefinePose(mesh), s0);
    for (let i = 0; i < flipped.pose.rotation.length; i++) flipped.pose.rotation[i] *= -1;
    const q = predictRefinePose(copyRefinePose(restRefinePose(mesh), s1), flipped, s1);
    const again = predictRefinePose(s1, flipped, s1);
    for (let j = 0; j < p.pose.rotation.length; j += 4) {
      const dot = [0, 1, 2, 3].reduce((acc, c) => acc + q.pose.rotation[j + c] * s2.pose.rotation[j + c], 0);
      expect(Math.abs(dot)).toBeCloseTo(1, 12);
    }
    expect(Array.from(again.pose.rotation)).toEqual(Array.from(q.pose.rotation));
    // quaternions a little off unit length (rounding over a clip): the prediction keeps the last
    // pose's length instead of compounding it frame after frame
    const long0 = copyRefinePose(restRefinePose(mesh), s0);
    const long1 = copyRefinePose(restRefinePose(mesh), s1);
    for (let i = 0; i < long0.pose.rotation.length; i++) {
      long0.pose.rotation[i] *= 1.01;
      long1.pose.rotation[i] *= 1.01;
    }
    const r = predictRefinePose(restRefinePose(mesh), long0, long1).pose.rotation;
    for (let j = 0; j < r.length; j += 4)
      expect(Math.hypot(r[j], r[j + 1], r[j + 2], r[j + 3])).toBeCloseTo(1.01, 12);
  });
});

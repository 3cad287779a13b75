import { applyPoseStep, copyRefinePose, jointPositions, restRefinePose } from '@mocap/reader';
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
});

import { boneRestMatrix, mat4ToRows } from '@mocap/anim-loop';
import { RigInfo, RigJson } from '@mocap/layout';
import { forwardKinematics, rigModelFromRigJson } from '@mocap/solver';
import { rigModelFromRigInfo } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

/** A hand-made three-bone rig: a root along +Y, an arm up +Z from its tail, a hand along +X. */
const HAND = RigJson.parse({
  joints: { a: [0, 0, 1], b: [0, 1, 1], c: [0, 1, 2], d: [1, 1, 2] },
  bones: [
    ['root', 'a', 'b', null],
    ['arm', 'b', 'c', 'root'],
    ['hand', 'c', 'd', 'arm'],
  ],
});

const zeros = (b: number) => Array.from({ length: b }, () => [0, 0, 0]);
const close = (a: ArrayLike<number>, b: number[], tol = 1e-9) => {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < b.length; i++) expect(Math.abs((a[i] as number) - (b[i] as number))).toBeLessThan(tol);
};
const jointsOf = (posed: { joints: Float64Array; names: string[] }, names: string[]) =>
  names.flatMap((n) =>
    Array.from(posed.joints.subarray(posed.names.indexOf(n) * 3, posed.names.indexOf(n) * 3 + 3)),
  );

describe('forwardKinematics', () => {
  it('puts every joint of the wolf at its rig.json position at rest', () => {
    const { rig } = loadCreature('wolf');
    const b = rig.bones.length;
    const posed = forwardKinematics(rig, {
      trans: [[0, 0, 0]],
      root_quat: [[1, 0, 0, 0]],
      euler: [zeros(b)],
    });
    posed.names.forEach((n, j) => {
      close(posed.joints.subarray(j * 3, j * 3 + 3), rig.joints[n] as number[], 1e-6);
    });
  });

  it('bends a hand-made arm by 90 degrees about its X axis', () => {
    // arm points +Z: its rest X axis is world +X; +90 deg about X takes +Z to -Y.
    const e = zeros(3);
    e[1] = [Math.PI / 2, 0, 0];
    const posed = forwardKinematics(HAND, { trans: [[0, 0, 0]], root_quat: [[1, 0, 0, 0]], euler: [e] });
    close(jointsOf(posed, ['c', 'd']), [0, 0, 1, 1, 0, 1], 1e-9);
  });

  it('twists the hand about its own axis without moving its tail, and swings it with Z', () => {
    const e = zeros(3);
    e[2] = [0, 0.7, 0];
    let posed = forwardKinematics(HAND, { trans: [[0, 0, 0]], root_quat: [[1, 0, 0, 0]], euler: [e] });
    close(jointsOf(posed, ['d']), [1, 1, 2], 1e-9);
    // hand along +X: rest Z axis is world +Y... a +90 deg Z turn takes its +Y (the bone) to -X-ish: check length kept and tail moved.
    e[2] = [0, 0, Math.PI / 2];
    posed = forwardKinematics(HAND, { trans: [[0, 0, 0]], root_quat: [[1, 0, 0, 0]], euler: [e] });
    const d = jointsOf(posed, ['d']);
    expect(Math.hypot(d[0]! - 0, d[1]! - 1, d[2]! - 2)).toBeCloseTo(1, 12);
    expect(Math.abs(d[0]! - 1)).toBeGreaterThan(0.5);
  });

  it('applies Euler angles in Blender XYZ order (X first)', () => {
    const e = zeros(3);
    e[1] = [Math.PI / 2, 0, Math.PI / 2];
    const posed = forwardKinematics(HAND, { trans: [[0, 0, 0]], root_quat: [[1, 0, 0, 0]], euler: [e] });
    // local: Rz(90) * Rx(90) * (0,1,0) = Rz(90) * (0,0,1) = (0,0,1) in the arm's rest frame (X=x, Y=z, Z=-y).
    close(jointsOf(posed, ['c']), [0, 0, 1], 1e-9);
  });

  it('moves and turns the root about its rest head (root_quat, trans)', () => {
    const s = Math.SQRT1_2;
    const posed = forwardKinematics(HAND, {
      trans: [[0.5, 0, 0]],
      root_quat: [[s, 0, 0, s]],
      euler: [zeros(3)],
    });
    // 90 deg about +Z around a = (0,0,1): b (0,1,1) -> (-1,0,1); then +0.5 in x.
    close(jointsOf(posed, ['a', 'b', 'c', 'd']), [0.5, 0, 1, -0.5, 0, 1, -0.5, 0, 2, -0.5, 1, 2], 1e-9);
  });

  it('gives the same joints from rig_info.json matrices as from rig.json', () => {
    const { rig } = loadCreature('wolf');
    const fromJson = rigModelFromRigJson(rig);
    const m = new Float64Array(16);
    const info = RigInfo.parse({
      root: rig.bones[0]![0],
      bones: rig.bones.map(([name, h, t, parent]) => {
        const head = rig.joints[h]!;
        const tail = rig.joints[t]!;
        boneRestMatrix(m, head, tail, 0);
        return {
          name,
          parent,
          head,
          tail,
          roll: 0,
          length: Math.hypot(tail[0] - head[0], tail[1] - head[1], tail[2] - head[2]),
          matrix_local: mat4ToRows(m),
          limits_deg: [
            [-30, 30],
            [-30, 30],
            [-30, 30],
          ],
        };
      }),
      keypoints: fromJson.keypoints.map((k) => ({ name: k.name, bone: fromJson.bones[k.bone]!, end: k.end })),
    });
    const model = rigModelFromRigInfo(info);
    const b = rig.bones.length;
    const euler = [
      Array.from({ length: b }, (_, i) => [0.2 * Math.sin(i), 0.1 * Math.cos(i), -0.15 * Math.sin(2 * i)]),
    ];
    const motion = { trans: [[0.1, -0.2, 0.05]], root_quat: [[0.9, 0.1, -0.2, 0.3]], euler };
    const a = forwardKinematics(fromJson, motion);
    const c = forwardKinematics(model, motion);
    close(c.joints, Array.from(a.joints), 1e-12);
  });

  it('keeps bone lengths in any pose', () => {
    const { rig, model } = loadCreature('dragon');
    const b = rig.bones.length;
    const euler = [Array.from({ length: b }, (_, i) => [Math.sin(i), Math.cos(3 * i), Math.sin(5 * i)])];
    const posed = forwardKinematics(model, { trans: [[0, 0, 0]], root_quat: [[1, 0, 0, 0]], euler });
    for (let i = 0; i < b; i++) {
      const h = posed.heads.subarray(i * 3, i * 3 + 3);
      const t = posed.tails.subarray(i * 3, i * 3 + 3);
      expect(Math.hypot(t[0]! - h[0]!, t[1]! - h[1]!, t[2]! - h[2]!)).toBeCloseTo(model.length[i]!, 5);
    }
  });
});

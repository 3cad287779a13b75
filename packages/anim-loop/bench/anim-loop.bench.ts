// Benchmarks: Euler -> matrix, slerp, and a 30-bone, 120-frame pose batch (Euler -> local
// rotation -> forward kinematics), ours beside three.js. Run: pnpm --filter @mocap/anim-loop bench
import { mat3FromEuler, quatFromEuler, resampleMotion } from '@mocap/anim-loop';
import { mat4FromRotationTranslation, mat4Multiply, quatSlerp } from '@mocap/anim-loop/internal';
import { Euler, Matrix4, Quaternion } from 'three';
import { bench, describe } from 'vitest';

// Bound to locals: under vitest every call through an import goes through a module-namespace
// getter (its SSR transform), which a bundled build does not have; three.js, loaded natively
// from node_modules, never pays it. Measure the functions, not the test runner.
const fromEuler = mat3FromEuler;
const slerp = quatSlerp;
const rotTrans = mat4FromRotationTranslation;
const mul4 = mat4Multiply;

const N = 1000;
let seed = 1;
const rand = () => {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
};
const angles = new Float64Array(N * 3).map(() => (rand() * 2 - 1) * Math.PI);
const quats = new Float64Array(N * 4);
for (let i = 0; i < N; i++)
  quatFromEuler(quats.subarray(i * 4, i * 4 + 4), angles.subarray(i * 3, i * 3 + 3));

// Views made once, as a caller holding per-frame tracks would (subarray allocates).
const angleViews = Array.from({ length: N }, (_, i) => angles.subarray(i * 3, i * 3 + 3));
const quatViews = Array.from({ length: N }, (_, i) => quats.subarray(i * 4, i * 4 + 4));

describe('Euler (XYZ) -> rotation matrix, 1000 per iteration', () => {
  const m = new Float64Array(9);
  bench('anim-loop mat3FromEuler', () => {
    for (let i = 0; i < N; i++) fromEuler(m, angleViews[i]!, 'XYZ');
  });
  const tm = new Matrix4();
  const te = new Euler();
  bench('three.js Matrix4.makeRotationFromEuler (ZYX)', () => {
    for (let i = 0; i < N; i++)
      tm.makeRotationFromEuler(te.set(angles[i * 3]!, angles[i * 3 + 1]!, angles[i * 3 + 2]!, 'ZYX'));
  });
});

describe('slerp, 1000 per iteration', () => {
  const q = new Float64Array(4);
  bench('anim-loop quatSlerp', () => {
    for (let i = 0; i < N - 1; i++) slerp(q, quatViews[i]!, quatViews[i + 1]!, 0.3);
  });
  const tq = Array.from({ length: N }, (_, i) => new Quaternion().fromArray(quats, i * 4));
  const out = new Quaternion();
  bench('three.js Quaternion.slerpQuaternions', () => {
    for (let i = 0; i < N - 1; i++) out.slerpQuaternions(tq[i]!, tq[i + 1]!, 0.3);
  });
});

describe('pose batch: 30 bones x 120 frames, Euler -> forward kinematics', () => {
  const B = 30;
  const T = 120;
  const parents = Array.from({ length: B }, (_, b) => (b === 0 ? -1 : Math.floor((b - 1) / 2)));
  const offsets = Array.from({ length: B }, () => {
    const m = new Float64Array(16);
    return mat4FromRotationTranslation(
      m,
      mat3FromEuler(new Float64Array(9), [rand(), rand(), rand()]),
      [0, 0.2, 0],
    );
  });
  const euler = new Float64Array(T * B * 3).map(() => rand() - 0.5);
  const eulerViews = Array.from({ length: T * B }, (_, k) => euler.subarray(k * 3, k * 3 + 3));
  const pose = Array.from({ length: B }, () => new Float64Array(16));
  const r3 = new Float64Array(9);
  const zero = new Float64Array(3);
  const local = new Float64Array(16);
  bench('anim-loop (mat3FromEuler + mat4Multiply)', () => {
    for (let t = 0; t < T; t++) {
      for (let b = 0; b < B; b++) {
        fromEuler(r3, eulerViews[t * B + b]!, 'XYZ');
        rotTrans(local, r3, zero);
        mul4(local, offsets[b]!, local);
        const p = parents[b]!;
        if (p < 0) pose[0]!.set(local);
        else mul4(pose[b]!, pose[p]!, local);
      }
    }
  });
  const tOffsets = offsets.map((m) => new Matrix4().fromArray(m));
  const tPose = Array.from({ length: B }, () => new Matrix4());
  const tLocal = new Matrix4();
  const tEuler = new Euler();
  bench('three.js (makeRotationFromEuler + multiplyMatrices)', () => {
    for (let t = 0; t < T; t++) {
      for (let b = 0; b < B; b++) {
        const k = (t * B + b) * 3;
        tLocal.makeRotationFromEuler(tEuler.set(euler[k]!, euler[k + 1]!, euler[k + 2]!, 'ZYX'));
        tLocal.premultiply(tOffsets[b]!);
        const p = parents[b]!;
        if (p < 0) tPose[0]!.copy(tLocal);
        else tPose[b]!.multiplyMatrices(tPose[p]!, tLocal);
      }
    }
  });
  const motion = {
    fps: 30,
    bones: Array.from({ length: B }, (_, b) => `b${b}`),
    trans: Array.from({ length: T }, () => [0, 0, 0] as [number, number, number]),
    root_quat: Array.from({ length: T }, () => [1, 0, 0, 0] as [number, number, number, number]),
    euler: Array.from({ length: T }, (_, t) =>
      Array.from(
        { length: B },
        (_, b) =>
          Array.from(euler.subarray((t * B + b) * 3, (t * B + b) * 3 + 3)) as [number, number, number],
      ),
    ),
  };
  bench('anim-loop resampleMotion 30 -> 24 fps (whole motion)', () => {
    resampleMotion(motion, 24);
  });
});

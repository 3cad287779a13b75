// anim-loop's test helpers: output buffers, a seeded motion, fast-check arbitraries (the float
// matchers expectVec / expectQuat are @mocap/test-utils').
import { readFileSync } from 'node:fs';
import { seededRandom } from '@mocap/anim-loop';
import { creatureDir } from '@mocap/test-utils';
import fc from 'fast-check';
import { Quaternion } from 'three';

fc.configureGlobal({ seed: 20261203, numRuns: 200 });

/** A fresh quaternion output (XYZW). */
export const q4 = () => new Float64Array(4);
/** A fresh 3-vector output. */
export const v3 = () => new Float64Array(3);
/** A fresh 3 x 3 matrix output. */
export const m9 = () => new Float64Array(9);
/** An XYZW quaternion as a three.js `Quaternion`, for cross-checks. */
export const tq = (q: ArrayLike<number>) => new Quaternion(q[0], q[1], q[2], q[3]);

/** Rotation axes (not all unit length) of the 180-degree edge cases. */
export const HALF_TURN_AXES: readonly number[][] = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 0],
  [0.3, -0.2, 0.9],
];

/** A finite double in [lo, hi]. */
export const num = (lo: number, hi: number) =>
  fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });

/** An angle in [-pi, pi]. */
const angle = num(-Math.PI, Math.PI);

/** Euler angles, each in [-pi, pi]. */
export const euler3 = fc.tuple(angle, angle, angle);

/** A vector with entries in [-s, s]. */
export const vec3Arb = (s = 10) => fc.tuple(num(-s, s), num(-s, s), num(-s, s));

/** A random unit quaternion (XYZW), well away from zero before normalising. */
export const unitQuat = fc
  .tuple(num(-1, 1), num(-1, 1), num(-1, 1), num(-1, 1))
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 0.01)
  .map(([x, y, z, w]) => {
    const n = Math.hypot(x, y, z, w);
    return [x / n, y / n, z / n, w / n] as [number, number, number, number];
  });

/** A 3 x 3 matrix with entries in [-2, 2] (column-major), well conditioned. */
export const mat3Arb = fc.array(num(-2, 2), { minLength: 9, maxLength: 9 }).filter((m) => {
  const det =
    m[0]! * (m[4]! * m[8]! - m[7]! * m[5]!) -
    m[3]! * (m[1]! * m[8]! - m[7]! * m[2]!) +
    m[6]! * (m[1]! * m[5]! - m[4]! * m[2]!);
  return Math.abs(det) > 0.1;
});

/** Options of {@link makeMotion}. */
export interface MakeMotionOptions {
  frames: number;
  fps?: number;
  bones: readonly string[];
  seed: number;
  /** Period in frames of every bone's swing. */
  period: number;
  /** Root travel per frame along -Y, metres. */
  speed?: number;
  /** A slow drift added to every bone's X angle per frame, radians (makes the motion not periodic). */
  drift?: number;
  /** Swing amplitude, radians. */
  amplitude?: number;
}

/** A synthetic, seeded motion: each bone swings sinusoidally with one period; the root walks and bobs. */
export function makeMotion(o: MakeMotionOptions) {
  const rand = seededRandom(o.seed);
  const amp = o.amplitude ?? 0.6;
  const params = o.bones.map(() =>
    Array.from({ length: 3 }, () => [
      amp * (rand.next() * 2 - 1),
      rand.next() * 6.283,
      0.3 * (rand.next() * 2 - 1),
    ]),
  );
  const trans: [number, number, number][] = [];
  const root_quat: [number, number, number, number][] = [];
  const euler: [number, number, number][][] = [];
  for (let t = 0; t < o.frames; t++) {
    const ph = (2 * Math.PI * t) / o.period;
    trans.push([0.02 * Math.sin(ph), -(o.speed ?? 0.01) * t, 0.03 * Math.sin(2 * ph)]);
    const yaw = 0.1 * Math.sin(ph);
    const pitch = 0.05 * Math.cos(ph);
    const q = [
      Math.cos(yaw / 2) * Math.cos(pitch / 2),
      Math.sin(pitch / 2) * Math.cos(yaw / 2),
      -Math.sin(yaw / 2) * Math.sin(pitch / 2),
      Math.sin(yaw / 2) * Math.cos(pitch / 2),
    ];
    const n = Math.hypot(...q);
    root_quat.push(q.map((x) => x / n + 0) as [number, number, number, number]);
    euler.push(
      params.map(
        (axes, b) =>
          axes.map(([a, phase, c], k) =>
            b === 0 ? 0 : c! + a! * Math.sin(ph + phase!) + (k === 0 ? (o.drift ?? 0) * t : 0),
          ) as [number, number, number],
      ),
    );
  }
  return { fps: o.fps ?? 30, bones: [...o.bones], trans, root_quat, euler };
}

/** The wolf's rig.json and creature.json (real bundled creature data). */
export function wolf() {
  return {
    rig: JSON.parse(readFileSync(creatureDir('wolf', 'rig.json'), 'utf8')) as {
      joints: Record<string, [number, number, number]>;
      bones: [string, string, string, string | null][];
    },
    creature: JSON.parse(readFileSync(creatureDir('wolf', 'creature.json'), 'utf8')) as {
      mirror?: Record<string, string>;
    },
  };
}

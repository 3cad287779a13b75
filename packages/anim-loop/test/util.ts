// Shared test helpers: one float matcher, seeded randomness, fast-check arbitraries.
import fc from 'fast-check';
import { expect } from 'vitest';

fc.configureGlobal({ seed: 20261203, numRuns: 200 });

/** Asserts two numeric arrays agree element-wise within `tol` (absolute). */
export function expectVec(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-12): void {
  expect(actual.length, 'length').toBe(expected.length);
  let worst = 0;
  for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!));
  if (!(worst <= tol)) {
    expect.fail(
      `max |diff| ${worst} > ${tol}: got [${Array.from(actual)}], expected [${Array.from(expected)}]`,
    );
  }
}

/** Like {@link expectVec} for quaternions, treating q and -q as equal. */
export function expectQuat(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-12): void {
  const d =
    actual[0]! * expected[0]! +
    actual[1]! * expected[1]! +
    actual[2]! * expected[2]! +
    actual[3]! * expected[3]!;
  const s = d < 0 ? -1 : 1;
  expectVec(
    Array.from(actual, (x) => s * x),
    expected,
    tol,
  );
}

/** A seeded PRNG (mulberry32) returning floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A finite double in [lo, hi]. */
export const num = (lo: number, hi: number) =>
  fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });

/** An angle in [-pi, pi]. */
export const angle = num(-Math.PI, Math.PI);

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

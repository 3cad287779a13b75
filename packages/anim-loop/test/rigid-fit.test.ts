import { quatFromMat3, rigidFit, seededRandom } from '@mocap/anim-loop';
import { mat3Determinant, mat3FromQuat, mat3TransformVec3, quatAngle } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { m9, unitQuat, v3, vec3Arb } from './util.js';

/** dst = R src + t (+ Gaussian noise of `sigma`), from a seeded generator. */
function makeSet(n: number, q: ArrayLike<number>, t: ArrayLike<number>, sigma: number, seed: number) {
  const rand = seededRandom(seed);
  const gauss = () => rand.normal();
  const r = mat3FromQuat(m9(), q);
  const src = new Float64Array(n * 3);
  const dst = new Float64Array(n * 3);
  const p = v3();
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) src[i * 3 + k] = rand.next() * 2 - 1;
    mat3TransformVec3(p, r, src.subarray(i * 3, i * 3 + 3));
    for (let k = 0; k < 3; k++) dst[i * 3 + k] = p[k]! + t[k]! + sigma * gauss();
  }
  return { src, dst, r };
}

describe('rigidFit', () => {
  it('recovers a known rotation and translation exactly from clean points', () => {
    fc.assert(
      fc.property(unitQuat, vec3Arb(), fc.integer({ min: 3, max: 30 }), fc.integer(), (q, t, n, seed) => {
        const { src, dst, r } = makeSet(n, q, t, 0, seed);
        const R = m9();
        const T = v3();
        const rms = rigidFit(R, T, src, dst);
        expectVec(R, r, 1e-9);
        expectVec(T, t, 1e-9);
        expect(rms).toBeLessThan(1e-9);
      }),
    );
  });

  it('recovers a known rotation from noisy points (1 cm noise, 40 points: within 1 deg)', () => {
    fc.assert(
      fc.property(unitQuat, vec3Arb(), fc.integer(), (q, t, seed) => {
        const { src, dst } = makeSet(40, q, t, 0.01, seed);
        const R = m9();
        const rms = rigidFit(R, v3(), src, dst);
        expect(quatAngle(quatFromMat3(new Float64Array(4), R), q)).toBeLessThan((1 * Math.PI) / 180);
        expect(rms).toBeGreaterThan(0.005);
        expect(rms).toBeLessThan(0.03);
      }),
      { numRuns: 100 },
    );
  });

  it('weights: a zero-weight outlier is ignored, a heavy one pulls the fit', () => {
    const q = [0.1, -0.2, 0.3, 0.9];
    const n = Math.hypot(...q);
    const qu = q.map((x) => x / n);
    const { src, dst, r } = makeSet(10, qu, [1, 2, 3], 0, 5);
    dst[0] += 5; // an outlier
    const w = new Float64Array(10).fill(1);
    w[0] = 0;
    const R = m9();
    const T = v3();
    expect(rigidFit(R, T, src, dst, w)).toBeLessThan(1e-12);
    expectVec(R, r, 1e-12);
    expectVec(T, [1, 2, 3], 1e-12);
    w[0] = 1;
    expect(rigidFit(R, T, src, dst, w)).toBeGreaterThan(0.1);
  });

  it('never returns a reflection, even for a mirrored point set', () => {
    const { src } = makeSet(12, [0, 0, 0, 1], [0, 0, 0], 0, 9);
    const mirrored = Float64Array.from(src);
    for (let i = 0; i < 12; i++) mirrored[i * 3] = -mirrored[i * 3]!;
    const R = m9();
    rigidFit(R, v3(), src, mirrored);
    expect(mat3Determinant(R)).toBeCloseTo(1, 12);
  });
});

describe('rigidFit aliasing (output is also an input)', () => {
  it('writes R and t into the point buffers it reads and gets the same answer', () => {
    const { src, dst } = makeSet(6, [0.5, 0.5, 0.5, 0.5], [0.1, 0.2, 0.3], 0.01, 3);
    const R = m9();
    const T = v3();
    const rms = rigidFit(R, T, src, dst);
    const s2 = Float64Array.from(src);
    const d2 = Float64Array.from(dst);
    expect(rigidFit(s2.subarray(0, 9), d2.subarray(3, 6), s2, d2)).toBe(rms);
    expectVec(s2.subarray(0, 9), R, 0);
    expectVec(d2.subarray(3, 6), T, 0);
  });
});

describe('rigidFit degenerate sets', () => {
  it('fewer than 2 weighted points throw a RangeError saying how many', () => {
    expect(() => rigidFit(m9(), v3(), [1, 2, 3], [1, 2, 3])).toThrow(
      /at least 2 points with weight > 0, got 1/,
    );
    expect(() => rigidFit(m9(), v3(), [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [1, 0])).toThrow(RangeError);
    expect(() => rigidFit(m9(), v3(), [], [])).toThrow(/got 0/);
  });

  it('bad shapes and weights throw a RangeError naming the problem', () => {
    expect(() => rigidFit(m9(), v3(), [1, 2, 3, 4], [1, 2, 3, 4])).toThrow(/x, y, z triples/);
    expect(() => rigidFit(m9(), v3(), [1, 2, 3, 4, 5, 6], [1, 2, 3])).toThrow(/same number/);
    expect(() => rigidFit(m9(), v3(), [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [1])).toThrow(
      /weights has 1 values/,
    );
    expect(() => rigidFit(m9(), v3(), [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6], [1, -1])).toThrow(
      /weights\[1\] is -1/,
    );
  });

  it('collinear points: the line is turned onto its target by the shortest arc', () => {
    // Points along +X mapped onto points along +Y: the best rotation is 90 deg about +Z.
    const src = [0, 0, 0, 1, 0, 0, 2, 0, 0];
    const dst = [5, 5, 5, 5, 6, 5, 5, 7, 5];
    const R = m9();
    const T = v3();
    expect(rigidFit(R, T, src, dst)).toBeLessThan(1e-12);
    expectVec(R, [0, 1, 0, -1, 0, 0, 0, 0, 1], 1e-12);
    expectVec(T, [5, 5, 5], 1e-12);
    // Two points are a line too.
    rigidFit(R, T, [0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1]);
    expectVec(R, [1, 0, 0, 0, 1, 0, 0, 0, 1], 1e-12);
  });

  it('coincident points: identity rotation, translation between the centroids', () => {
    const R = m9();
    const T = v3();
    rigidFit(R, T, [1, 1, 1, 1, 1, 1], [2, 3, 4, 2, 3, 4]);
    expectVec(R, [1, 0, 0, 0, 1, 0, 0, 0, 1], 0);
    expectVec(T, [1, 2, 3], 1e-15);
  });
});

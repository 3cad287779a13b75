import { seededRandom } from '@mocap/anim-loop';
import { createDistanceScratch, distanceTransform } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

function bruteForce(mask: Uint8Array, w: number, h: number, x0: number, x1: number): Float64Array {
  const out = new Float64Array(w * h).fill(Number.POSITIVE_INFINITY);
  for (let y = 0; y < h; y++)
    for (let x = x0; x < x1; x++)
      for (let yy = 0; yy < h; yy++)
        for (let xx = x0; xx < x1; xx++)
          if (mask[yy * w + xx]) out[y * w + x] = Math.min(out[y * w + x], Math.hypot(x - xx, y - yy));
  return out;
}

describe('distanceTransform', () => {
  it('is the exact Euclidean distance, per column range, on random masks', () => {
    const rng = seededRandom(11);
    const [w, h] = [53, 37];
    for (let trial = 0; trial < 4; trial++) {
      const mask = new Uint8Array(w * h);
      for (let i = 0; i < mask.length; i++) mask[i] = rng.next() < 0.02 * (trial + 1) ? 1 : 0;
      const out = new Float32Array(w * h).fill(-1);
      const scratch = createDistanceScratch(64);
      distanceTransform(out, mask, w, h, { x0: 0, x1: 20, y0: 0, y1: h }, scratch);
      distanceTransform(out, mask, w, h, { x0: 20, x1: w, y0: 0, y1: h }, scratch);
      const a = bruteForce(mask, w, h, 0, 20);
      const b = bruteForce(mask, w, h, 20, w);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          const want = x < 20 ? a[y * w + x] : b[y * w + x];
          if (want === Number.POSITIVE_INFINITY) expect(out[y * w + x]).toBe(Number.POSITIVE_INFINITY);
          else expect(Math.abs(out[y * w + x] - want)).toBeLessThan(1e-5);
        }
    }
  });

  it('keeps to a rectangle of rows and columns', () => {
    const rng = seededRandom(12);
    const [w, h] = [30, 25];
    const mask = new Uint8Array(w * h);
    for (let i = 0; i < mask.length; i++) mask[i] = rng.next() < 0.03 ? 1 : 0;
    const out = new Float32Array(w * h).fill(-1);
    distanceTransform(out, mask, w, h, { x0: 4, x1: 22, y0: 3, y1: 19 });
    const sub = new Uint8Array(w * h);
    for (let y = 3; y < 19; y++) for (let x = 4; x < 22; x++) sub[y * w + x] = mask[y * w + x];
    const want = bruteForce(sub, w, h, 4, 22);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if (y < 3 || y >= 19 || x < 4 || x >= 22) expect(out[y * w + x]).toBe(-1);
        else expect(Math.abs(out[y * w + x] - want[y * w + x])).toBeLessThan(1e-5);
      }
  });

  it('gives Infinity everywhere for an empty range and 0 on the sites', () => {
    const mask = new Uint8Array(12);
    const out = new Float32Array(12);
    distanceTransform(out, mask, 4, 3);
    expect(Array.from(out).every((v) => v === Number.POSITIVE_INFINITY)).toBe(true);
    mask[5] = 1;
    distanceTransform(out, mask, 4, 3);
    expect(out[5]).toBe(0);
    expect(out[0]).toBeCloseTo(Math.SQRT2, 6);
    expect(out[7]).toBeCloseTo(2, 6);
  });
});

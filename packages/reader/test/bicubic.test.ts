import { bicubicWeights, resizeGridBicubic } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

describe('bicubic grid resize (PyTorch antialiased bicubic)', () => {
  it('is the identity at the same size and keeps a constant grid constant when shrinking', () => {
    const src = Float32Array.from({ length: 5 * 5 * 2 }, (_, i) => Math.sin(i));
    expect(Array.from(resizeGridBicubic(src, 5, 2, 5))).toEqual(
      Array.from(src).map((v) => expect.closeTo(v, 6)),
    );
    const flat = resizeGridBicubic(new Float32Array(37 * 37).fill(0.25), 37, 1, 32);
    for (const v of flat) expect(v).toBeCloseTo(0.25, 6);
  });

  it('weights sum to 1, widen when shrinking, and reproduce a linear ramp inside', () => {
    for (const [n, m] of [
      [37, 32],
      [4, 7],
      [37, 16],
    ] as const) {
      for (const { weights } of bicubicWeights(n, m))
        expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    }
    expect(bicubicWeights(37, 16)[8]!.weights.length).toBeGreaterThan(4);
    // Upsampling 8 -> 16: a ramp f(x) = x sampled at centres maps to the ramp at the new centres.
    const n = 8;
    const m = 16;
    const src = new Float32Array(n * n);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) src[y * n + x] = x + 0.5;
    const out = resizeGridBicubic(src, n, 1, m);
    for (let x = 3; x < m - 3; x++) expect(out[5 * m + x]).toBeCloseTo(((x + 0.5) * n) / m, 5);
  });
});

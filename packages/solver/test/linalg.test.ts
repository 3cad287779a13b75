import { addDiffGram, bandFactor, bandSolve, symmetricEigen } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';

describe('linalg', () => {
  it('diagonalises a symmetric matrix (A v = lambda v, orthonormal vectors)', () => {
    const n = 6;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) a[i * n + j] = a[j * n + i] = Math.sin(i * 3 + j) + (i === j ? 3 : 0);
    const copy = Float64Array.from(a);
    const values = new Float64Array(n);
    const vectors = new Float64Array(n * n);
    symmetricEigen(a, n, values, vectors);
    for (let k = 0; k < n; k++) {
      for (let r = 0; r < n; r++) {
        let av = 0;
        for (let c = 0; c < n; c++) av += (copy[r * n + c] as number) * (vectors[c * n + k] as number);
        expect(av).toBeCloseTo((values[k] as number) * (vectors[r * n + k] as number), 10);
      }
      for (let q = 0; q < n; q++) {
        let d = 0;
        for (let r = 0; r < n; r++) d += (vectors[r * n + k] as number) * (vectors[r * n + q] as number);
        expect(d).toBeCloseTo(k === q ? 1 : 0, 10);
      }
    }
  });

  it('solves a banded system built from difference operators', () => {
    const n = 20;
    const band = new Float64Array(4 * n);
    addDiffGram(band, n, 3, 2);
    addDiffGram(band, n, 1, 0.5);
    for (let i = 0; i < n; i++) band[i] = (band[i] as number) + 1;
    // Dense copy to check against.
    const dense = (i: number, j: number): number => {
      const d = Math.abs(i - j);
      return d > 3 ? 0 : (band[d * n + Math.min(i, j)] as number);
    };
    const x = Float64Array.from({ length: n }, (_, i) => Math.cos(i));
    const b = Float64Array.from({ length: n }, (_, i) => {
      let s = 0;
      for (let j = 0; j < n; j++) s += dense(i, j) * (x[j] as number);
      return s;
    });
    bandFactor(band, n, 3);
    bandSolve(band, n, 3, b, 0, 1);
    for (let i = 0; i < n; i++) expect(b[i]).toBeCloseTo(x[i] as number, 10);
  });
});

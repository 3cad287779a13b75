/** Keys' cubic convolution kernel with parameter `a`. */
function cubic(x: number, a: number): number {
  const t = Math.abs(x);
  if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
  return 0;
}

/**
 * Resampling weights from `n` samples to `m` along one axis, as PyTorch's
 * `interpolate(mode='bicubic', align_corners=False, antialias=True)` computes them (PIL's filter,
 * a = -0.5, widened by the scale when shrinking, taps outside the input dropped and the rest
 * renormalised). Returns, per output index, the first input index and its weights.
 */
export function bicubicWeights(n: number, m: number): { start: number; weights: number[] }[] {
  const scale = n / m;
  const support = 2 * Math.max(scale, 1);
  const inv = 1 / Math.max(scale, 1);
  const out: { start: number; weights: number[] }[] = [];
  for (let i = 0; i < m; i++) {
    const centre = (i + 0.5) * scale;
    const lo = Math.max(Math.floor(centre - support + 0.5), 0);
    const hi = Math.min(Math.floor(centre + support + 0.5), n);
    const weights: number[] = [];
    let sum = 0;
    for (let j = lo; j < hi; j++) {
      const w = cubic((j - centre + 0.5) * inv, -0.5);
      weights.push(w);
      sum += w;
    }
    out.push({ start: lo, weights: weights.map((w) => (sum === 0 ? 0 : w / sum)) });
  }
  return out;
}

/**
 * Resizes a `n` x `n` grid of `d`-vectors (row-major, channels last) to `m` x `m` with
 * {@link bicubicWeights} along both axes (separable, like PyTorch).
 *
 * ```ts
 * const grid32 = resizeGridBicubic(posEmbed37, 37, 768, 32);
 * ```
 */
export function resizeGridBicubic(src: Float32Array, n: number, d: number, m: number): Float32Array {
  const wts = bicubicWeights(n, m);
  // Along x first: n rows x m cols.
  const tmp = new Float64Array(n * m * d);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < m; x++) {
      const { start, weights } = wts[x]!;
      const o = (y * m + x) * d;
      for (let k = 0; k < weights.length; k++) {
        const s = (y * n + start + k) * d;
        const w = weights[k]!;
        for (let c = 0; c < d; c++) tmp[o + c]! += w * src[s + c]!;
      }
    }
  const out = new Float32Array(m * m * d);
  for (let y = 0; y < m; y++) {
    const { start, weights } = wts[y]!;
    for (let x = 0; x < m; x++) {
      const o = (y * m + x) * d;
      for (let k = 0; k < weights.length; k++) {
        const s = ((start + k) * m + x) * d;
        const w = weights[k]!;
        for (let c = 0; c < d; c++) out[o + c]! += w * tmp[s + c]!;
      }
    }
  }
  return out;
}

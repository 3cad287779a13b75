/**
 * Scratch space for {@link distanceTransform}: sized for the longest row or column it will see.
 */
export interface DistanceScratch {
  f: Float64Array;
  d: Float64Array;
  v: Int32Array;
  z: Float64Array;
}

/** Scratch for images up to `n` pixels on a side. */
export function createDistanceScratch(n: number): DistanceScratch {
  return {
    f: new Float64Array(n),
    d: new Float64Array(n),
    v: new Int32Array(n),
    z: new Float64Array(n + 1),
  };
}

/**
 * One-dimensional squared distance transform of a sampled function (Felzenszwalb and
 * Huttenlocher's lower envelope of parabolas, O(n)): `d[q] = min_p (q - p)^2 + f[p]`, over the
 * sites p where `f[p]` is finite (`d` is all `Infinity` when none is).
 */
export function distanceTransform1d(
  d: Float64Array,
  f: Float64Array,
  n: number,
  v: Int32Array,
  z: Float64Array,
): Float64Array {
  let k = -1;
  for (let q = 0; q < n; q++) {
    const fq = f[q];
    if (fq === Number.POSITIVE_INFINITY) continue;
    if (k < 0) {
      k = 0;
      v[0] = q;
      z[0] = Number.NEGATIVE_INFINITY;
      z[1] = Number.POSITIVE_INFINITY;
      continue;
    }
    const a = fq + q * q;
    let s = (a - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (a - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Number.POSITIVE_INFINITY;
  }
  if (k < 0) return d.fill(Number.POSITIVE_INFINITY, 0, n);
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const dq = q - v[k];
    d[q] = dq * dq + f[v[k]];
  }
  return d;
}

/** A pixel rectangle `[x0, x1) x [y0, y1)`. */
export interface PixelRect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * Exact Euclidean distance transform (Felzenszwalb-Huttenlocher, O(N)) of a binary mask inside
 * the rectangle `rect` (default: the whole image) of a `width` x `height` image: `out[i]` =
 * distance in pixels from pixel i to the nearest pixel of the rectangle with `mask[i] !== 0`
 * (`Infinity` if it has none). Pixels outside the rectangle are left untouched, so the two views
 * of a frame are transformed apart. The column pass of a binary mask is two row-major sweeps;
 * the row pass is the parabola envelope.
 *
 * ```ts
 * distanceTransform(dist, mask, 1280, 720, { x0: 0, x1: 420, y0: 0, y1: 720 });
 * ```
 */
export function distanceTransform(
  out: Float32Array,
  mask: Uint8Array,
  width: number,
  height: number,
  rect: PixelRect = { x0: 0, x1: width, y0: 0, y1: height },
  scratch: DistanceScratch = createDistanceScratch(Math.max(width, height)),
): Float32Array {
  const { f, v, z } = scratch;
  const { x0, x1, y0, y1 } = rect;
  const INF = Number.POSITIVE_INFINITY;
  // vertical distance to the nearest site in the same column: down, then up
  for (let x = x0; x < x1; x++) out[y0 * width + x] = mask[y0 * width + x] ? 0 : INF;
  for (let y = y0 + 1; y < y1; y++) {
    const o = y * width;
    for (let x = x0; x < x1; x++) out[o + x] = mask[o + x] ? 0 : out[o - width + x] + 1;
  }
  for (let y = y1 - 2; y >= y0; y--) {
    const o = y * width;
    for (let x = x0; x < x1; x++) {
      const below = out[o + width + x] + 1;
      if (below < out[o + x]) out[o + x] = below;
    }
  }
  // horizontal: squared vertical distances as the sampled function, distanceTransform1d inlined
  // (the same arithmetic, without the copies in and out)
  const w = x1 - x0;
  for (let y = y0; y < y1; y++) {
    const o = y * width + x0;
    let k = -1;
    for (let q = 0; q < w; q++) {
      const g = out[o + q];
      if (g === INF) continue;
      const fq = g * g;
      f[q] = fq;
      if (k < 0) {
        k = 0;
        v[0] = q;
        z[0] = Number.NEGATIVE_INFINITY;
        z[1] = INF;
        continue;
      }
      const a = fq + q * q;
      let p = v[k];
      let s = (a - (f[p] + p * p)) / (2 * q - 2 * p);
      while (s <= z[k]) {
        k--;
        p = v[k];
        s = (a - (f[p] + p * p)) / (2 * q - 2 * p);
      }
      k++;
      v[k] = q;
      z[k] = s;
      z[k + 1] = INF;
    }
    if (k < 0) {
      out.fill(INF, o, o + w);
      continue;
    }
    k = 0;
    for (let q = 0; q < w; q++) {
      while (z[k + 1] < q) k++;
      const dq = q - v[k];
      out[o + q] = Math.sqrt(dq * dq + f[v[k]]);
    }
  }
  return out;
}

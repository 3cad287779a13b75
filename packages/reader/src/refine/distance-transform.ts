/** The value standing for "no site": far beyond any squared pixel distance. */
const FAR = 1e20;

/**
 * Scratch space for {@link distanceTransform}: sized for the longest row or column it will see.
 */
export interface DistanceScratch {
  f: Float64Array;
  d: Float64Array;
  v: Int32Array;
  z: Float64Array;
  col: Float64Array;
}

/** Scratch for images up to `n` pixels on a side. */
export function createDistanceScratch(n: number): DistanceScratch {
  return {
    f: new Float64Array(n),
    d: new Float64Array(n),
    v: new Int32Array(n),
    z: new Float64Array(n + 1),
    col: new Float64Array(n),
  };
}

/**
 * One-dimensional squared distance transform of a sampled function (Felzenszwalb and
 * Huttenlocher's lower envelope of parabolas, O(n)): `d[q] = min_p (q - p)^2 + f[p]`.
 */
export function distanceTransform1d(
  d: Float64Array,
  f: Float64Array,
  n: number,
  v: Int32Array,
  z: Float64Array,
): Float64Array {
  let k = 0;
  v[0] = 0;
  z[0] = Number.NEGATIVE_INFINITY;
  z[1] = Number.POSITIVE_INFINITY;
  for (let q = 1; q < n; q++) {
    const fq = f[q] + q * q;
    let s = (fq - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    while (s <= z[k]) {
      k--;
      s = (fq - (f[v[k]] + v[k] * v[k])) / (2 * q - 2 * v[k]);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Number.POSITIVE_INFINITY;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1] < q) k++;
    const dq = q - v[k];
    d[q] = dq * dq + f[v[k]];
  }
  return d;
}

/**
 * Exact Euclidean distance transform (Felzenszwalb-Huttenlocher, O(N)) of a binary mask inside
 * the column range `[x0, x1)` of a `width` x `height` image: `out[i]` = distance in pixels from
 * pixel i to the nearest pixel with `mask[i] !== 0` (`Infinity` if the range has none). Columns
 * outside the range are left untouched, so the two views of a frame are transformed apart.
 *
 * ```ts
 * distanceTransform(dist, mask, 1280, 720, 0, 420, createDistanceScratch(1280));
 * ```
 */
export function distanceTransform(
  out: Float32Array,
  mask: Uint8Array,
  width: number,
  height: number,
  x0 = 0,
  x1 = width,
  scratch: DistanceScratch = createDistanceScratch(Math.max(width, height)),
): Float32Array {
  const { f, d, v, z, col } = scratch;
  const w = x1 - x0;
  // columns first
  for (let x = x0; x < x1; x++) {
    for (let y = 0; y < height; y++) f[y] = mask[y * width + x] ? 0 : FAR;
    distanceTransform1d(col, f, height, v, z);
    for (let y = 0; y < height; y++) out[y * width + x] = Math.min(col[y], FAR);
  }
  // then rows
  for (let y = 0; y < height; y++) {
    const o = y * width + x0;
    for (let x = 0; x < w; x++) f[x] = out[o + x];
    distanceTransform1d(d, f, w, v, z);
    for (let x = 0; x < w; x++) out[o + x] = d[x] >= FAR / 2 ? Number.POSITIVE_INFINITY : Math.sqrt(d[x]);
  }
  return out;
}

/**
 * Eigen-decomposition of a symmetric n x n matrix (row-major `a`, destroyed) by cyclic Jacobi
 * rotations. Eigenvalues go to `values` (n), eigenvectors to the columns of `vectors`
 * (row-major n x n: `vectors[r * n + k]` is component r of eigenvector k).
 */
export function symmetricEigen(
  a: Float64Array,
  n: number,
  values: Float64Array,
  vectors: Float64Array,
): void {
  vectors.fill(0);
  for (let i = 0; i < n; i++) vectors[i * n + i] = 1;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale += (a[i] as number) ** 2;
  const tol = 1e-22 * scale;
  for (let sweep = 0; sweep < 30; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += (a[p * n + q] as number) ** 2;
    if (off <= tol) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q] as number;
        if (apq * apq <= 1e-30 * scale) continue;
        const app = a[p * n + p] as number;
        const aqq = a[q * n + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p] as number;
          const akq = a[k * n + q] as number;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k] as number;
          const aqk = a[q * n + k] as number;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = vectors[k * n + p] as number;
          const vkq = vectors[k * n + q] as number;
          vectors[k * n + p] = c * vkp - s * vkq;
          vectors[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  for (let i = 0; i < n; i++) values[i] = a[i * n + i] as number;
}

/**
 * A symmetric positive definite banded matrix of size n with half-bandwidth `w`, stored by
 * diagonals: `band[d * n + i]` is entry (i, i + d) for d = 0..w. Factors it in place as
 * L D L^T (unit lower L in the same layout, D on diagonal 0).
 */
export function bandFactor(band: Float64Array, n: number, w: number): void {
  for (let i = 0; i < n; i++) {
    let d = band[i] as number;
    const lo = Math.max(0, i - w);
    for (let k = lo; k < i; k++) {
      const l = band[(i - k) * n + k] as number;
      d -= l * l * (band[k] as number);
    }
    band[i] = d;
    for (let j = i + 1; j <= Math.min(n - 1, i + w); j++) {
      let s = band[(j - i) * n + i] as number;
      const lo2 = Math.max(0, j - w);
      for (let k = lo2; k < i; k++) {
        s -= (band[(i - k) * n + k] as number) * (band[(j - k) * n + k] as number) * (band[k] as number);
      }
      band[(j - i) * n + i] = s / d;
    }
  }
}

/**
 * Solves with a {@link bandFactor}ed matrix, in place on `x` read with `stride` from `offset`
 * (so one call solves one column of a frames x modes array).
 */
export function bandSolve(
  band: Float64Array,
  n: number,
  w: number,
  x: Float64Array,
  offset: number,
  stride: number,
): void {
  for (let i = 0; i < n; i++) {
    let s = x[offset + i * stride] as number;
    for (let k = Math.max(0, i - w); k < i; k++)
      s -= (band[(i - k) * n + k] as number) * (x[offset + k * stride] as number);
    x[offset + i * stride] = s;
  }
  for (let i = 0; i < n; i++)
    x[offset + i * stride] = (x[offset + i * stride] as number) / (band[i] as number);
  for (let i = n - 1; i >= 0; i--) {
    let s = x[offset + i * stride] as number;
    for (let j = i + 1; j <= Math.min(n - 1, i + w); j++)
      s -= (band[(j - i) * n + i] as number) * (x[offset + j * stride] as number);
    x[offset + i * stride] = s;
  }
}

/** Coefficients of the finite-difference operators used by the temporal priors. */
export const DIFF: Readonly<Record<1 | 2 | 3 | 4, readonly number[]>> = {
  1: [-1, 1],
  2: [1, -2, 1],
  3: [-1, 3, -3, 1],
  4: [1, -4, 6, -4, 1],
};

/**
 * Adds `weight * D^T D` of the order-`order` difference operator over `n` samples to a band
 * stored as in {@link bandFactor} (half-bandwidth at least `order`).
 */
export function addDiffGram(band: Float64Array, n: number, order: 1 | 2 | 3 | 4, weight: number): void {
  const c = DIFF[order];
  for (let t = 0; t + order < n; t++) {
    for (let a = 0; a <= order; a++) {
      for (let b = a; b <= order; b++) {
        band[(b - a) * n + t + a] =
          (band[(b - a) * n + t + a] as number) + weight * (c[a] as number) * (c[b] as number);
      }
    }
  }
}

/** The diagonal of D^T D at frame f of t (D: the order-`order` differences): the squared coefficients of the windows covering f. */
export function diffDiagonal(f: number, order: 1 | 2 | 3 | 4, t: number): number {
  const c = DIFF[order];
  let s = 0;
  for (let q = 0; q <= order; q++) if (f - q >= 0 && f - q + order < t) s += (c[q] as number) ** 2;
  return s;
}

/**
 * The k-th smallest of `a` (0-based), by quickselect in place: afterwards a[0..k) <= a[k] <=
 * a(k..n). Median-of-three pivots; O(n) on average, no sort.
 */
export function selectKth(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    const x = a[lo] as number;
    const y = a[mid] as number;
    const z = a[hi] as number;
    const pivot = Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const tmp = a[i] as number;
        a[i] = a[j] as number;
        a[j] = tmp;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k] as number;
}

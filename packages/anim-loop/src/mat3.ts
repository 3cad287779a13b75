import type { Out } from './types.js';

/**
 * Sets `out` to the 3 x 3 identity.
 *
 * ```ts
 * mat3Identity(m);
 * ```
 */
export function mat3Identity<T extends Out>(out: T): T {
  out[0] = 1;
  out[1] = 0;
  out[2] = 0;
  out[3] = 0;
  out[4] = 1;
  out[5] = 0;
  out[6] = 0;
  out[7] = 0;
  out[8] = 1;
  return out;
}

/**
 * Copies a 3 x 3 matrix.
 *
 * ```ts
 * mat3Copy(out, m);
 * ```
 */
export function mat3Copy<T extends Out>(out: T, m: ArrayLike<number>): T {
  for (let i = 0; i < 9; i++) out[i] = m[i]!;
  return out;
}

/**
 * `out = a * b` (apply `b`, then `a`), column-major. `out` may alias `a` or `b`.
 *
 * ```ts
 * mat3Multiply(out, parent, local);
 * ```
 */
export function mat3Multiply<T extends Out>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  const a00 = a[0]!,
    a10 = a[1]!,
    a20 = a[2]!;
  const a01 = a[3]!,
    a11 = a[4]!,
    a21 = a[5]!;
  const a02 = a[6]!,
    a12 = a[7]!,
    a22 = a[8]!;
  for (let c = 0; c < 3; c++) {
    const b0 = b[c * 3]!,
      b1 = b[c * 3 + 1]!,
      b2 = b[c * 3 + 2]!;
    out[c * 3] = a00 * b0 + a01 * b1 + a02 * b2;
    out[c * 3 + 1] = a10 * b0 + a11 * b1 + a12 * b2;
    out[c * 3 + 2] = a20 * b0 + a21 * b1 + a22 * b2;
  }
  return out;
}

/**
 * `out = m^T`. `out` may alias `m`.
 *
 * ```ts
 * mat3Transpose(inv, rotation); // inverse of a rotation
 * ```
 */
export function mat3Transpose<T extends Out>(out: T, m: ArrayLike<number>): T {
  const m1 = m[1]!,
    m2 = m[2]!,
    m5 = m[5]!;
  out[0] = m[0]!;
  out[1] = m[3]!;
  out[2] = m[6]!;
  out[3] = m1;
  out[4] = m[4]!;
  out[5] = m[7]!;
  out[6] = m2;
  out[7] = m5;
  out[8] = m[8]!;
  return out;
}

/**
 * The determinant of a 3 x 3 matrix.
 *
 * ```ts
 * if (mat3Determinant(r) < 0) throw new Error('reflection');
 * ```
 */
export function mat3Determinant(m: ArrayLike<number>): number {
  const a = m[0]!,
    b = m[3]!,
    c = m[6]!;
  const d = m[1]!,
    e = m[4]!,
    f = m[7]!;
  const g = m[2]!,
    h = m[5]!,
    i = m[8]!;
  return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
}

/**
 * `out = m^-1`. `out` may alias `m`. Throws a `RangeError` for a singular matrix.
 *
 * ```ts
 * mat3Invert(inv, m);
 * ```
 */
export function mat3Invert<T extends Out>(out: T, m: ArrayLike<number>): T {
  const a = m[0]!,
    d = m[1]!,
    g = m[2]!;
  const b = m[3]!,
    e = m[4]!,
    h = m[5]!;
  const c = m[6]!,
    f = m[7]!,
    i = m[8]!;
  const c00 = e * i - f * h;
  const c01 = f * g - d * i;
  const c02 = d * h - e * g;
  const det = a * c00 + b * c01 + c * c02;
  if (det === 0 || !Number.isFinite(det)) {
    throw new RangeError(`mat3Invert: the matrix is singular (determinant ${det}).`);
  }
  const s = 1 / det;
  // inverse = adjugate / det; adjugate is the transposed cofactor matrix (row-major math below).
  out[0] = c00 * s;
  out[1] = c01 * s;
  out[2] = c02 * s;
  out[3] = (c * h - b * i) * s;
  out[4] = (a * i - c * g) * s;
  out[5] = (b * g - a * h) * s;
  out[6] = (b * f - c * e) * s;
  out[7] = (c * d - a * f) * s;
  out[8] = (a * e - b * d) * s;
  return out;
}

/**
 * `out = m * v`. `out` may alias `v`.
 *
 * ```ts
 * mat3TransformVec3(p, rotation, p);
 * ```
 */
export function mat3TransformVec3<T extends Out>(out: T, m: ArrayLike<number>, v: ArrayLike<number>): T {
  const x = v[0]!,
    y = v[1]!,
    z = v[2]!;
  out[0] = m[0]! * x + m[3]! * y + m[6]! * z;
  out[1] = m[1]! * x + m[4]! * y + m[7]! * z;
  out[2] = m[2]! * x + m[5]! * y + m[8]! * z;
  return out;
}

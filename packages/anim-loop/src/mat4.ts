import type { Out } from './types.js';

/**
 * Sets `out` to the 4 x 4 identity.
 *
 * ```ts
 * mat4Identity(m);
 * ```
 */
export function mat4Identity<T extends Out>(out: T): T {
  for (let i = 0; i < 16; i++) out[i] = i % 5 === 0 ? 1 : 0;
  return out;
}

/**
 * Copies a 4 x 4 matrix.
 *
 * ```ts
 * mat4Copy(out, m);
 * ```
 */
export function mat4Copy<T extends Out>(out: T, m: ArrayLike<number>): T {
  for (let i = 0; i < 16; i++) out[i] = m[i]!;
  return out;
}

/**
 * `out = a * b` (apply `b`, then `a`), column-major. `out` may alias `a` or `b`.
 *
 * ```ts
 * mat4Multiply(world, parentWorld, local);
 * ```
 */
export function mat4Multiply<T extends Out>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  const a00 = a[0]!,
    a10 = a[1]!,
    a20 = a[2]!,
    a30 = a[3]!;
  const a01 = a[4]!,
    a11 = a[5]!,
    a21 = a[6]!,
    a31 = a[7]!;
  const a02 = a[8]!,
    a12 = a[9]!,
    a22 = a[10]!,
    a32 = a[11]!;
  const a03 = a[12]!,
    a13 = a[13]!,
    a23 = a[14]!,
    a33 = a[15]!;
  for (let c = 0; c < 4; c++) {
    const k = c * 4;
    const b0 = b[k]!,
      b1 = b[k + 1]!,
      b2 = b[k + 2]!,
      b3 = b[k + 3]!;
    out[k] = a00 * b0 + a01 * b1 + a02 * b2 + a03 * b3;
    out[k + 1] = a10 * b0 + a11 * b1 + a12 * b2 + a13 * b3;
    out[k + 2] = a20 * b0 + a21 * b1 + a22 * b2 + a23 * b3;
    out[k + 3] = a30 * b0 + a31 * b1 + a32 * b2 + a33 * b3;
  }
  return out;
}

/**
 * `out = m^T`. `out` may alias `m`.
 *
 * ```ts
 * mat4Transpose(t, m);
 * ```
 */
export function mat4Transpose<T extends Out>(out: T, m: ArrayLike<number>): T {
  for (let r = 0; r < 4; r++) {
    for (let c = r + 1; c < 4; c++) {
      const x = m[c * 4 + r]!;
      out[c * 4 + r] = m[r * 4 + c]!;
      out[r * 4 + c] = x;
    }
    out[r * 5] = m[r * 5]!;
  }
  return out;
}

/**
 * `out = m^-1` for a general 4 x 4 matrix (cofactor expansion). `out` may alias `m`.
 * Throws a `RangeError` for a singular matrix.
 *
 * ```ts
 * mat4Invert(inv, boneMatrixLocal);
 * ```
 */
export function mat4Invert<T extends Out>(out: T, m: ArrayLike<number>): T {
  const a00 = m[0]!,
    a01 = m[1]!,
    a02 = m[2]!,
    a03 = m[3]!;
  const a10 = m[4]!,
    a11 = m[5]!,
    a12 = m[6]!,
    a13 = m[7]!;
  const a20 = m[8]!,
    a21 = m[9]!,
    a22 = m[10]!,
    a23 = m[11]!;
  const a30 = m[12]!,
    a31 = m[13]!,
    a32 = m[14]!,
    a33 = m[15]!;
  // 2 x 2 minors of the first two and last two columns (storage columns).
  const b00 = a00 * a11 - a01 * a10;
  const b01 = a00 * a12 - a02 * a10;
  const b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11;
  const b04 = a01 * a13 - a03 * a11;
  const b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30;
  const b07 = a20 * a32 - a22 * a30;
  const b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31;
  const b10 = a21 * a33 - a23 * a31;
  const b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (det === 0 || !Number.isFinite(det)) {
    throw new RangeError(`mat4Invert: the matrix is singular (determinant ${det}).`);
  }
  const s = 1 / det;
  out[0] = (a11 * b11 - a12 * b10 + a13 * b09) * s;
  out[1] = (a02 * b10 - a01 * b11 - a03 * b09) * s;
  out[2] = (a31 * b05 - a32 * b04 + a33 * b03) * s;
  out[3] = (a22 * b04 - a21 * b05 - a23 * b03) * s;
  out[4] = (a12 * b08 - a10 * b11 - a13 * b07) * s;
  out[5] = (a00 * b11 - a02 * b08 + a03 * b07) * s;
  out[6] = (a32 * b02 - a30 * b05 - a33 * b01) * s;
  out[7] = (a20 * b05 - a22 * b02 + a23 * b01) * s;
  out[8] = (a10 * b10 - a11 * b08 + a13 * b06) * s;
  out[9] = (a01 * b08 - a00 * b10 - a03 * b06) * s;
  out[10] = (a30 * b04 - a31 * b02 + a33 * b00) * s;
  out[11] = (a21 * b02 - a20 * b04 - a23 * b00) * s;
  out[12] = (a11 * b07 - a10 * b09 - a12 * b06) * s;
  out[13] = (a00 * b09 - a01 * b07 + a02 * b06) * s;
  out[14] = (a31 * b01 - a30 * b03 - a32 * b00) * s;
  out[15] = (a20 * b03 - a21 * b01 + a22 * b00) * s;
  return out;
}

/**
 * A rigid transform: rotation `rot3` (3 x 3, column-major) then translation `t`. `out` may
 * alias either input.
 *
 * ```ts
 * mat4FromRotationTranslation(m, r, [0, 0, 1]);
 * ```
 */
export function mat4FromRotationTranslation<T extends Out>(
  out: T,
  rot3: ArrayLike<number>,
  t: ArrayLike<number>,
): T {
  const r0 = rot3[0]!,
    r1 = rot3[1]!,
    r2 = rot3[2]!,
    r3 = rot3[3]!,
    r4 = rot3[4]!;
  const r5 = rot3[5]!,
    r6 = rot3[6]!,
    r7 = rot3[7]!,
    r8 = rot3[8]!;
  const tx = t[0]!,
    ty = t[1]!,
    tz = t[2]!;
  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
  out[3] = 0;
  out[4] = r3;
  out[5] = r4;
  out[6] = r5;
  out[7] = 0;
  out[8] = r6;
  out[9] = r7;
  out[10] = r8;
  out[11] = 0;
  out[12] = tx;
  out[13] = ty;
  out[14] = tz;
  out[15] = 1;
  return out;
}

/**
 * A matrix from Blender/Python rows (`[list(r) for r in matrix]`, as in rig_info.json
 * `matrix_local`) into column-major storage.
 *
 * ```ts
 * mat4FromRows(m, info.bones[0].matrix_local);
 * ```
 */
export function mat4FromRows<T extends Out>(out: T, rows: ArrayLike<ArrayLike<number>>): T {
  if (rows.length !== 4) throw new RangeError(`mat4FromRows: expected 4 rows, got ${rows.length}.`);
  for (let r = 0; r < 4; r++) {
    const row = rows[r]!;
    if (row.length !== 4) {
      throw new RangeError(`mat4FromRows: row ${r} has ${row.length} values, expected 4.`);
    }
    for (let c = 0; c < 4; c++) out[c * 4 + r] = row[c]!;
  }
  return out;
}

/**
 * A matrix as Blender/Python rows (the inverse of {@link mat4FromRows}); allocates.
 *
 * ```ts
 * const rows = mat4ToRows(m); // [[r0c0, r0c1, r0c2, r0c3], ...]
 * ```
 */
export function mat4ToRows(m: ArrayLike<number>): number[][] {
  const rows: number[][] = [];
  for (let r = 0; r < 4; r++) rows.push([m[r]!, m[4 + r]!, m[8 + r]!, m[12 + r]!]);
  return rows;
}

/**
 * `out = m * [p, 1]` (dropping w; for affine matrices). `out` may alias `p`.
 *
 * ```ts
 * mat4TransformPoint(world, boneMatrix, [0, 1, 0]);
 * ```
 */
export function mat4TransformPoint<T extends Out>(out: T, m: ArrayLike<number>, p: ArrayLike<number>): T {
  const x = p[0]!,
    y = p[1]!,
    z = p[2]!;
  out[0] = m[0]! * x + m[4]! * y + m[8]! * z + m[12]!;
  out[1] = m[1]! * x + m[5]! * y + m[9]! * z + m[13]!;
  out[2] = m[2]! * x + m[6]! * y + m[10]! * z + m[14]!;
  return out;
}

/**
 * The upper-left 3 x 3 block of `m` (its rotation, when `m` is rigid).
 *
 * ```ts
 * mat4GetRotation(r3, m);
 * ```
 */
export function mat4GetRotation<T extends Out>(outMat3: T, m: ArrayLike<number>): T {
  for (let c = 0; c < 3; c++) {
    outMat3[c * 3] = m[c * 4]!;
    outMat3[c * 3 + 1] = m[c * 4 + 1]!;
    outMat3[c * 3 + 2] = m[c * 4 + 2]!;
  }
  return outMat3;
}

/**
 * The translation column of `m`.
 *
 * ```ts
 * mat4GetTranslation(head, boneMatrixLocal);
 * ```
 */
export function mat4GetTranslation<T extends Out>(outVec3: T, m: ArrayLike<number>): T {
  outVec3[0] = m[12]!;
  outVec3[1] = m[13]!;
  outVec3[2] = m[14]!;
  return outVec3;
}

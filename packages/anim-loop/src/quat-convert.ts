import type { Out } from './types.js';

/**
 * XYZW from Blender's W, X, Y, Z order (`Quaternion` in bpy, `root_quat` in motion.json).
 * `out` may alias `wxyz`.
 *
 * ```ts
 * quatFromWxyz(q, motion.root_quat[t]);
 * ```
 */
export function quatFromWxyz<T extends Out>(out: T, wxyz: ArrayLike<number>): T {
  const w = wxyz[0]!,
    x = wxyz[1]!,
    y = wxyz[2]!,
    z = wxyz[3]!;
  out[0] = x;
  out[1] = y;
  out[2] = z;
  out[3] = w;
  return out;
}

/**
 * Blender's W, X, Y, Z order from XYZW. `out4` may alias `q`.
 *
 * ```ts
 * const rootQuat = Array.from(quatToWxyz(new Float64Array(4), q));
 * ```
 */
export function quatToWxyz<T extends Out>(out4: T, q: ArrayLike<number>): T {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  out4[0] = w;
  out4[1] = x;
  out4[2] = y;
  out4[3] = z;
  return out4;
}

/**
 * The unit quaternion of a rotation matrix (column-major 3 x 3, assumed orthonormal with
 * det +1), by the trace/largest-diagonal method; `w >= 0` is not guaranteed.
 *
 * ```ts
 * quatFromMat3(q, r);
 * ```
 */
export function quatFromMat3<T extends Out>(out: T, m: ArrayLike<number>): T {
  const m00 = m[0]!,
    m10 = m[1]!,
    m20 = m[2]!;
  const m01 = m[3]!,
    m11 = m[4]!,
    m21 = m[5]!;
  const m02 = m[6]!,
    m12 = m[7]!,
    m22 = m[8]!;
  const tr = m00 + m11 + m22;
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    out[3] = 0.25 / s;
    out[0] = (m21 - m12) * s;
    out[1] = (m02 - m20) * s;
    out[2] = (m10 - m01) * s;
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    out[3] = (m21 - m12) / s;
    out[0] = 0.25 * s;
    out[1] = (m01 + m10) / s;
    out[2] = (m02 + m20) / s;
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    out[3] = (m02 - m20) / s;
    out[0] = (m01 + m10) / s;
    out[1] = 0.25 * s;
    out[2] = (m12 + m21) / s;
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    out[3] = (m10 - m01) / s;
    out[0] = (m02 + m20) / s;
    out[1] = (m12 + m21) / s;
    out[2] = 0.25 * s;
  }
  return out;
}

/**
 * The rotation matrix (column-major 3 x 3) of a unit quaternion.
 *
 * ```ts
 * mat3FromQuat(r, q);
 * ```
 */
export function mat3FromQuat<T extends Out>(out: T, q: ArrayLike<number>): T {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const x2 = x + x,
    y2 = y + y,
    z2 = z + z;
  const xx = x * x2,
    xy = x * y2,
    xz = x * z2;
  const yy = y * y2,
    yz = y * z2,
    zz = z * z2;
  const wx = w * x2,
    wy = w * y2,
    wz = w * z2;
  out[0] = 1 - (yy + zz);
  out[1] = xy + wz;
  out[2] = xz - wy;
  out[3] = xy - wz;
  out[4] = 1 - (xx + zz);
  out[5] = yz + wx;
  out[6] = xz + wy;
  out[7] = yz - wx;
  out[8] = 1 - (xx + yy);
  return out;
}

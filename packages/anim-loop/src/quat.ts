import { EPSILON, type Out } from './types.js';

// A module-local copy: hot paths read a local binding, not an imported one.
const EPS = EPSILON;

/**
 * Sets `out` to the identity rotation `[0, 0, 0, 1]` (XYZW).
 *
 * ```ts
 * quatIdentity(q);
 * ```
 */
export function quatIdentity<T extends Out>(out: T): T {
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  out[3] = 1;
  return out;
}

/**
 * Copies a quaternion.
 *
 * ```ts
 * quatCopy(out, q);
 * ```
 */
export function quatCopy<T extends Out>(out: T, q: ArrayLike<number>): T {
  out[0] = q[0]!;
  out[1] = q[1]!;
  out[2] = q[2]!;
  out[3] = q[3]!;
  return out;
}

/**
 * Hamilton product `out = a * b`: rotate by `b`, then by `a`. `out` may alias `a` or `b`.
 *
 * ```ts
 * quatMultiply(world, parentWorld, local);
 * ```
 */
export function quatMultiply<T extends Out>(out: T, a: ArrayLike<number>, b: ArrayLike<number>): T {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    aw = a[3]!;
  const bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/**
 * The conjugate `(-x, -y, -z, w)`: the inverse rotation of a unit quaternion.
 *
 * ```ts
 * quatConjugate(inv, q);
 * ```
 */
export function quatConjugate<T extends Out>(out: T, q: ArrayLike<number>): T {
  out[0] = -q[0]!;
  out[1] = -q[1]!;
  out[2] = -q[2]!;
  out[3] = q[3]!;
  return out;
}

/**
 * The inverse `conj(q) / |q|^2` (works for non-unit quaternions). Throws a `RangeError` for
 * the zero quaternion.
 *
 * ```ts
 * quatInvert(inv, q);
 * ```
 */
export function quatInvert<T extends Out>(out: T, q: ArrayLike<number>): T {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const n2 = x * x + y * y + z * z + w * w;
  if (!(n2 > 0)) throw new RangeError(`quatInvert: the quaternion [${x}, ${y}, ${z}, ${w}] has no inverse.`);
  const s = 1 / n2;
  out[0] = -x * s;
  out[1] = -y * s;
  out[2] = -z * s;
  out[3] = w * s;
  return out;
}

/**
 * Scales `q` to unit length. Throws a `RangeError` for the zero quaternion (no rotation is
 * meant by it, and silently returning identity hides bugs).
 *
 * ```ts
 * quatNormalize(q, q);
 * ```
 */
export function quatNormalize<T extends Out>(out: T, q: ArrayLike<number>): T {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new RangeError(`quatNormalize: cannot normalise the quaternion [${x}, ${y}, ${z}, ${w}].`);
  }
  const s = 1 / n;
  out[0] = x * s;
  out[1] = y * s;
  out[2] = z * s;
  out[3] = w * s;
  return out;
}

/**
 * The 4-D dot product of two quaternions (cosine of half the angle between unit rotations,
 * up to sign).
 *
 * ```ts
 * if (quatDot(a, b) < 0) quatScale(b, b, -1);
 * ```
 */
export function quatDot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!;
}

/**
 * The rotation by `angle` radians about `axis` (right-handed; the axis need not be unit
 * length; a zero axis gives the identity).
 *
 * ```ts
 * quatFromAxisAngle(q, [0, 0, 1], Math.PI / 2);
 * ```
 */
export function quatFromAxisAngle<T extends Out>(out: T, axis: ArrayLike<number>, angle: number): T {
  const x = axis[0]!,
    y = axis[1]!,
    z = axis[2]!;
  const n = Math.sqrt(x * x + y * y + z * z);
  if (n === 0) return quatIdentity(out);
  const s = Math.sin(angle / 2) / n;
  out[0] = x * s;
  out[1] = y * s;
  out[2] = z * s;
  out[3] = Math.cos(angle / 2);
  return out;
}

/**
 * Splits a unit quaternion into a unit axis (written to `outAxis`) and returns the angle in
 * [0, 2 pi]; the angle is in [0, pi] when `q[3] >= 0`. For the identity the axis is
 * `[1, 0, 0]` and the angle 0.
 *
 * ```ts
 * const angle = quatToAxisAngle(axis, q);
 * ```
 */
export function quatToAxisAngle<T extends Out>(outAxis: T, q: ArrayLike<number>): number {
  const x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  const s = Math.sqrt(x * x + y * y + z * z);
  if (s < EPS * EPS) {
    outAxis[0] = 1;
    outAxis[1] = 0;
    outAxis[2] = 0;
    return 0;
  }
  outAxis[0] = x / s;
  outAxis[1] = y / s;
  outAxis[2] = z / s;
  return 2 * Math.atan2(s, w);
}

/**
 * `out = q v q^-1`: the vector `v` rotated by the unit quaternion `q`. `out` may alias `v`.
 *
 * ```ts
 * quatRotateVec3(p, q, p);
 * ```
 */
export function quatRotateVec3<T extends Out>(out: T, q: ArrayLike<number>, v: ArrayLike<number>): T {
  const qx = q[0]!,
    qy = q[1]!,
    qz = q[2]!,
    qw = q[3]!;
  const vx = v[0]!,
    vy = v[1]!,
    vz = v[2]!;
  // t = 2 (q.xyz x v); v' = v + w t + q.xyz x t
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[0] = vx + qw * tx + (qy * tz - qz * ty);
  out[1] = vy + qw * ty + (qz * tx - qx * tz);
  out[2] = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/**
 * Normalised linear interpolation along the shorter arc (`b` is negated when `a . b < 0`).
 * Cheaper than slerp, not constant speed. `out` may alias `a` or `b`.
 *
 * ```ts
 * quatNlerp(q, a, b, 0.5);
 * ```
 */
export function quatNlerp<T extends Out>(out: T, a: ArrayLike<number>, b: ArrayLike<number>, t: number): T {
  const sb = quatDot(a, b) < 0 ? -1 : 1;
  const u = 1 - t,
    v = t * sb;
  const x = u * a[0]! + v * b[0]!;
  const y = u * a[1]! + v * b[1]!;
  const z = u * a[2]! + v * b[2]!;
  const w = u * a[3]! + v * b[3]!;
  out[0] = x;
  out[1] = y;
  out[2] = z;
  out[3] = w;
  return quatNormalize(out, out);
}

/**
 * Spherical linear interpolation of unit quaternions along the shorter arc, at constant
 * angular speed: `t = 0` gives `a`, `t = 1` gives `b` (or `-b`). `out` may alias `a` or `b`.
 *
 * ```ts
 * quatSlerp(q, a, b, 0.25);
 * ```
 */
export function quatSlerp<T extends Out>(out: T, a: ArrayLike<number>, b: ArrayLike<number>, t: number): T {
  const ax = a[0]!,
    ay = a[1]!,
    az = a[2]!,
    aw = a[3]!;
  let bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  let d = ax * bx + ay * by + az * bz + aw * bw;
  if (d < 0) {
    d = -d;
    bx = -bx;
    by = -by;
    bz = -bz;
    bw = -bw;
  }
  // sin of the 4-D angle from (1 - d)(1 + d), not 1 - d^2, to keep precision near d = 1.
  const s = Math.sqrt(Math.max(0, (1 - d) * (1 + d)));
  let ka: number, kb: number;
  if (s < EPS) {
    ka = 1 - t;
    kb = t;
  } else {
    const omega = Math.atan2(s, d);
    ka = Math.sin((1 - t) * omega) / s;
    kb = Math.sin(t * omega) / s;
  }
  out[0] = ka * ax + kb * bx;
  out[1] = ka * ay + kb * by;
  out[2] = ka * az + kb * bz;
  out[3] = ka * aw + kb * bw;
  return out;
}

/**
 * The quaternion logarithm of a unit quaternion: the pure vector `(theta / 2) * axis` (half
 * the rotation vector), with `q[3] >= 0` taken so the result has length <= pi / 2. The inverse
 * of {@link quatExp}.
 *
 * ```ts
 * quatLog(v, q); // |v| is half the rotation angle
 * ```
 */
export function quatLog<T extends Out>(outVec3: T, q: ArrayLike<number>): T {
  let x = q[0]!,
    y = q[1]!,
    z = q[2]!,
    w = q[3]!;
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  // half angle / sin(half angle), -> 1 as s -> 0
  const k = s < EPS ? 1 / Math.max(w, EPS) : Math.atan2(s, w) / s;
  outVec3[0] = x * k;
  outVec3[1] = y * k;
  outVec3[2] = z * k;
  return outVec3;
}

/**
 * The quaternion exponential of a pure vector `v`: `(sin|v| * v/|v|, cos|v|)`. With
 * `v = (theta / 2) * axis` this is the rotation by `theta` about `axis`.
 *
 * ```ts
 * quatExp(q, [0, 0, Math.PI / 4]); // 90 deg about Z
 * ```
 */
export function quatExp<T extends Out>(out: T, v: ArrayLike<number>): T {
  const x = v[0]!,
    y = v[1]!,
    z = v[2]!;
  const n = Math.sqrt(x * x + y * y + z * z);
  const k = n < EPS ? 1 - (n * n) / 6 : Math.sin(n) / n;
  out[0] = x * k;
  out[1] = y * k;
  out[2] = z * k;
  out[3] = Math.cos(n);
  return out;
}

/**
 * The angle in radians, in [0, pi], of the rotation taking unit quaternion `a` to `b` (q and
 * -q are the same rotation, so this is 0 for them).
 *
 * ```ts
 * const err = quatAngle(fitted, truth);
 * ```
 */
export function quatAngle(a: ArrayLike<number>, b: ArrayLike<number>): number {
  // r = conj(a) * b; angle = 2 atan2(|r.xyz|, |r.w|)
  const ax = -a[0]!,
    ay = -a[1]!,
    az = -a[2]!,
    aw = a[3]!;
  const bx = b[0]!,
    by = b[1]!,
    bz = b[2]!,
    bw = b[3]!;
  const x = aw * bx + ax * bw + ay * bz - az * by;
  const y = aw * by - ax * bz + ay * bw + az * bx;
  const z = aw * bz + ax * by - ay * bx + az * bw;
  const w = aw * bw - ax * bx - ay * by - az * bz;
  return 2 * Math.atan2(Math.sqrt(x * x + y * y + z * z), Math.abs(w));
}

/**
 * The angular velocity (radians per unit time, armature/world frame) that turns `q0` into `q1`
 * over `dt` at a constant rate: `q1 = exp(omega * dt / 2) * q0`, along the shorter arc.
 *
 * ```ts
 * quatAngularVelocity(omega, track[t], track[t + 1], 1 / fps);
 * ```
 */
export function quatAngularVelocity<T extends Out>(
  outVec3: T,
  q0: ArrayLike<number>,
  q1: ArrayLike<number>,
  dt: number,
): T {
  if (!(dt > 0)) throw new RangeError(`quatAngularVelocity: dt must be > 0, got ${dt}.`);
  // d = q1 * conj(q0)
  const ax = q1[0]!,
    ay = q1[1]!,
    az = q1[2]!,
    aw = q1[3]!;
  const bx = -q0[0]!,
    by = -q0[1]!,
    bz = -q0[2]!,
    bw = q0[3]!;
  let x = aw * bx + ax * bw + ay * bz - az * by;
  let y = aw * by - ax * bz + ay * bw + az * bx;
  let z = aw * bz + ax * by - ay * bx + az * bw;
  let w = aw * bw - ax * bx - ay * by - az * bz;
  if (w < 0) {
    x = -x;
    y = -y;
    z = -z;
    w = -w;
  }
  const s = Math.sqrt(x * x + y * y + z * z);
  const k = s < EPS ? 2 / Math.max(w, EPS) / dt : (2 * Math.atan2(s, w)) / s / dt;
  outVec3[0] = x * k;
  outVec3[1] = y * k;
  outVec3[2] = z * k;
  return outVec3;
}

/**
 * Sign continuity along a quaternion track, in place: negates every quaternion whose dot with
 * the one before is negative, so interpolation and finite differences never take the long way.
 * `track` holds `count` quaternions, XYZW, `stride` numbers apart (default 4). Returns `track`.
 *
 * ```ts
 * quatTrackContinuity(rootQuats); // Float64Array of T * 4
 * ```
 */
export function quatTrackContinuity<T extends Out>(
  track: T,
  count = Math.floor(track.length / 4),
  stride = 4,
): T {
  for (let t = 1; t < count; t++) {
    const p = (t - 1) * stride,
      c = t * stride;
    const d =
      track[p]! * track[c]! +
      track[p + 1]! * track[c + 1]! +
      track[p + 2]! * track[c + 2]! +
      track[p + 3]! * track[c + 3]!;
    if (d < 0) {
      track[c] = -track[c]!;
      track[c + 1] = -track[c + 1]!;
      track[c + 2] = -track[c + 2]!;
      track[c + 3] = -track[c + 3]!;
    }
  }
  return track;
}

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

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

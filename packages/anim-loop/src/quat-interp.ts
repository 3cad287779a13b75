import { quatDot, quatNormalize } from './quat.js';
import { EPSILON, type Out } from './types.js';

// A module-local copy: hot paths read a local binding, not an imported one.
const EPS = EPSILON;

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

import { mat3FromQuat } from './quat-convert.js';
import { symEigen4 } from './sym-eigen4.js';
import type { Out } from './types.js';

const N = new Float64Array(16);
const V = new Float64Array(16);
const Q = new Float64Array(4);
const R = new Float64Array(9);

/** Optimal rotations closer than this (relative to the largest eigenvalue) count as ties. */
const TIE = 1e-9;

/**
 * Weighted rigid fit (Horn's quaternion method, the closed form of weighted Kabsch): the
 * proper rotation `outR` (column-major 3 x 3, det +1, never a reflection) and translation
 * `outT` minimising `sum_n w_n |R src_n + t - dst_n|^2`. `src` and `dst` hold N points as
 * `x, y, z` triples; `weights` (N values >= 0) default to 1. Returns the weighted RMS
 * residual of the fit. The outputs are written last, so they may alias `src` or `dst`.
 *
 * Degenerate sets: fewer than 2 points with weight > 0 throw a `RangeError`. When the best
 * rotation is not unique (collinear points, which leave the spin about their line free; or
 * coincident points, which leave every rotation free) the optimal rotation nearest the
 * identity (smallest angle) is returned, so a collinear fit only turns the line onto its
 * target by the shortest arc.
 *
 * ```ts
 * const rms = rigidFit(r, t, restPoints, observedPoints, confidences);
 * ```
 */
export function rigidFit(
  outR: Out,
  outT: Out,
  src: ArrayLike<number>,
  dst: ArrayLike<number>,
  weights?: ArrayLike<number>,
): number {
  const n = src.length / 3;
  if (!Number.isInteger(n) || dst.length !== src.length) {
    throw new RangeError(
      `rigidFit: src and dst must hold the same number of x, y, z triples, got ${src.length} and ${dst.length} values.`,
    );
  }
  if (weights !== undefined && weights.length !== n) {
    throw new RangeError(`rigidFit: weights has ${weights.length} values for ${n} points.`);
  }
  let sw = 0,
    used = 0;
  let px = 0,
    py = 0,
    pz = 0,
    qx = 0,
    qy = 0,
    qz = 0;
  for (let i = 0; i < n; i++) {
    const w = weights === undefined ? 1 : weights[i]!;
    if (!(w >= 0) || !Number.isFinite(w)) {
      throw new RangeError(`rigidFit: weights[${i}] is ${w}; weights must be finite and >= 0.`);
    }
    if (w === 0) continue;
    used++;
    sw += w;
    px += w * src[i * 3]!;
    py += w * src[i * 3 + 1]!;
    pz += w * src[i * 3 + 2]!;
    qx += w * dst[i * 3]!;
    qy += w * dst[i * 3 + 1]!;
    qz += w * dst[i * 3 + 2]!;
  }
  if (used < 2) {
    throw new RangeError(`rigidFit: needs at least 2 points with weight > 0, got ${used} (of ${n}).`);
  }
  px /= sw;
  py /= sw;
  pz /= sw;
  qx /= sw;
  qy /= sw;
  qz /= sw;
  // Weighted cross-covariance S_ab = sum w (p - p0)_a (q - q0)_b.
  let sxx = 0,
    sxy = 0,
    sxz = 0,
    syx = 0,
    syy = 0,
    syz = 0,
    szx = 0,
    szy = 0,
    szz = 0;
  for (let i = 0; i < n; i++) {
    const w = weights === undefined ? 1 : weights[i]!;
    if (w === 0) continue;
    const ax = src[i * 3]! - px,
      ay = src[i * 3 + 1]! - py,
      az = src[i * 3 + 2]! - pz;
    const bx = dst[i * 3]! - qx,
      by = dst[i * 3 + 1]! - qy,
      bz = dst[i * 3 + 2]! - qz;
    sxx += w * ax * bx;
    sxy += w * ax * by;
    sxz += w * ax * bz;
    syx += w * ay * bx;
    syy += w * ay * by;
    syz += w * ay * bz;
    szx += w * az * bx;
    szy += w * az * by;
    szz += w * az * bz;
  }
  // Horn's symmetric matrix over (w, x, y, z); its top eigenvector is the best rotation.
  N[0] = sxx + syy + szz;
  N[1] = N[4] = syz - szy;
  N[2] = N[8] = szx - sxz;
  N[3] = N[12] = sxy - syx;
  N[5] = sxx - syy - szz;
  N[6] = N[9] = sxy + syx;
  N[7] = N[13] = szx + sxz;
  N[10] = -sxx + syy - szz;
  N[11] = N[14] = syz + szy;
  N[15] = -sxx - syy + szz;
  symEigen4(N, V);
  let top = 0,
    scale = 0;
  for (let e = 0; e < 4; e++) {
    scale = Math.max(scale, Math.abs(N[e * 5]!));
    if (N[e * 5]! > N[top * 5]!) top = e;
  }
  // Project the identity (w = 1) onto the eigenvectors tied with the top one: the optimal
  // rotation of smallest angle (the top eigenvector itself when it is unique).
  const lmax = N[top * 5]!;
  let qw = 0,
    qxx = 0,
    qyy = 0,
    qzz = 0;
  for (let e = 0; e < 4; e++) {
    if (lmax - N[e * 5]! > TIE * scale) continue;
    const vw = V[e * 4]!;
    qw += vw * V[e * 4]!;
    qxx += vw * V[e * 4 + 1]!;
    qyy += vw * V[e * 4 + 2]!;
    qzz += vw * V[e * 4 + 3]!;
  }
  let norm = Math.sqrt(qw * qw + qxx * qxx + qyy * qyy + qzz * qzz);
  if (norm < 1e-6) {
    qw = V[top * 4]!;
    qxx = V[top * 4 + 1]!;
    qyy = V[top * 4 + 2]!;
    qzz = V[top * 4 + 3]!;
    norm = Math.sqrt(qw * qw + qxx * qxx + qyy * qyy + qzz * qzz);
  }
  Q[0] = qxx / norm;
  Q[1] = qyy / norm;
  Q[2] = qzz / norm;
  Q[3] = qw / norm;
  const r = mat3FromQuat(R, Q);
  const tx = qx - (r[0]! * px + r[3]! * py + r[6]! * pz);
  const ty = qy - (r[1]! * px + r[4]! * py + r[7]! * pz);
  const tz = qz - (r[2]! * px + r[5]! * py + r[8]! * pz);
  let err = 0;
  for (let i = 0; i < n; i++) {
    const w = weights === undefined ? 1 : weights[i]!;
    if (w === 0) continue;
    const x = src[i * 3]!,
      y = src[i * 3 + 1]!,
      z = src[i * 3 + 2]!;
    const ex = r[0]! * x + r[3]! * y + r[6]! * z + tx - dst[i * 3]!;
    const ey = r[1]! * x + r[4]! * y + r[7]! * z + ty - dst[i * 3 + 1]!;
    const ez = r[2]! * x + r[5]! * y + r[8]! * z + tz - dst[i * 3 + 2]!;
    err += w * (ex * ex + ey * ey + ez * ez);
  }
  // Written last, so the outputs may alias the inputs.
  for (let i = 0; i < 9; i++) outR[i] = r[i]!;
  outT[0] = tx;
  outT[1] = ty;
  outT[2] = tz;
  return Math.sqrt(err / sw);
}

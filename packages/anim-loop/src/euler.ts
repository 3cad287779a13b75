import { mat3FromQuat } from './quat-convert.js';
import type { Out } from './types.js';

/**
 * A Blender rotation mode. The letters name the axes **in the order they are applied**:
 * Blender's `'XYZ'` is `R = Rz * Ry * Rx` (X first). three.js names the same rotation `'ZYX'`.
 * An Euler vector always holds the angles about X, Y and Z in that order, whatever the mode.
 */
export type EulerOrder = 'XYZ' | 'XZY' | 'YXZ' | 'YZX' | 'ZXY' | 'ZYX';

/** Every {@link EulerOrder}. */
export const EULER_ORDERS: readonly EulerOrder[] = ['XYZ', 'XZY', 'YXZ', 'YZX', 'ZXY', 'ZYX'];

// First, second and third axis applied; odd permutations of (0, 1, 2) flip the handedness.
const AXES: Record<EulerOrder, readonly [number, number, number, boolean]> = {
  XYZ: [0, 1, 2, false],
  XZY: [0, 2, 1, true],
  YXZ: [1, 0, 2, true],
  YZX: [1, 2, 0, false],
  ZXY: [2, 0, 1, false],
  ZYX: [2, 1, 0, true],
};

function axesOf(op: string, order: string): readonly [number, number, number, boolean] {
  const a = AXES[order as EulerOrder];
  if (a === undefined) {
    throw new TypeError(
      `${op}: Expected an Euler order (${EULER_ORDERS.join(', ')}), got ${JSON.stringify(order)}.`,
    );
  }
  return a;
}

/**
 * The rotation matrix (column-major 3 x 3) of Euler angles `e = [x, y, z]` (radians) in a
 * Blender rotation mode: for `'XYZ'`, `R = Rz(z) * Ry(y) * Rx(x)`.
 *
 * ```ts
 * mat3FromEuler(r, motion.euler[t][b]); // pose_bone.rotation_euler, mode XYZ
 * ```
 */
export function mat3FromEuler<T extends Out>(out: T, e: ArrayLike<number>, order: EulerOrder = 'XYZ'): T {
  const ax = axesOf('mat3FromEuler', order);
  const i = ax[0],
    j = ax[1],
    k = ax[2],
    odd = ax[3];
  // Angles about the first, second and third axis; an odd permutation is a left-handed frame,
  // where the same right-handed rotation reads as the negated angle.
  const sg = odd ? -1 : 1;
  const a = sg * e[i]!,
    b = sg * e[j]!,
    c = sg * e[k]!;
  const ca = Math.cos(a),
    sa = Math.sin(a);
  const cb = Math.cos(b),
    sb = Math.sin(b);
  const cc = Math.cos(c),
    sc = Math.sin(c);
  // R = Rk(c) Rj(b) Ri(a) in the cyclic frame (i, j, k); element (row r, col q) at q * 3 + r.
  out[i * 3 + i] = cb * cc;
  out[j * 3 + i] = sa * sb * cc - ca * sc;
  out[k * 3 + i] = ca * sb * cc + sa * sc;
  out[i * 3 + j] = cb * sc;
  out[j * 3 + j] = sa * sb * sc + ca * cc;
  out[k * 3 + j] = ca * sb * sc - sa * cc;
  out[i * 3 + k] = -sb;
  out[j * 3 + k] = sa * cb;
  out[k * 3 + k] = ca * cb;
  return out;
}

const TAU = 2 * Math.PI;
/** Below this cos(middle angle) the matrix counts as gimbal-locked (both branches err < 1e-8 there). */
const GIMBAL = 1e-8;

/** `x` plus the multiple of 2 pi that brings it nearest to `ref`. */
function wrapNear(x: number, ref: number): number {
  return x - TAU * Math.round((x - ref) / TAU);
}

/**
 * Euler angles `[x, y, z]` (radians) of a rotation matrix (column-major 3 x 3, orthonormal)
 * in a Blender rotation mode. Of the two solutions, without `prefer` the one with the smaller
 * `|x| + |y| + |z|` is returned (as Blender's `to_euler(order)`); with `prefer`, each angle is
 * moved by whole turns next to `prefer`'s and the nearer solution is returned (as Blender's
 * `to_euler(order, compat)`), so tracks stay continuous. At gimbal lock (middle angle +-pi/2)
 * only the sum or difference of the outer angles is determined: the third angle is set to 0,
 * or to `prefer`'s third angle when given.
 *
 * ```ts
 * eulerFromMat3(e, r, 'XYZ', previousFrameEuler);
 * ```
 */
export function eulerFromMat3<T extends Out>(
  out: T,
  m: ArrayLike<number>,
  order: EulerOrder = 'XYZ',
  prefer?: ArrayLike<number>,
): T {
  const ax = axesOf('eulerFromMat3', order);
  const i = ax[0],
    j = ax[1],
    k = ax[2],
    odd = ax[3];
  const sg = odd ? -1 : 1;
  const rii = m[i * 3 + i]!,
    rji = m[i * 3 + j]!,
    rki = m[i * 3 + k]!;
  const rkj = m[j * 3 + k]!,
    rkk = m[k * 3 + k]!;
  const cy = Math.sqrt(rii * rii + rji * rji);
  let a1: number, b1: number, c1: number, a2: number, b2: number, c2: number;
  if (cy > GIMBAL) {
    a1 = Math.atan2(rkj, rkk);
    b1 = Math.atan2(-rki, cy);
    c1 = Math.atan2(rji, rii);
    a2 = Math.atan2(-rkj, -rkk);
    b2 = Math.atan2(-rki, -cy);
    c2 = Math.atan2(-rji, -rii);
  } else {
    // Gimbal lock, sin b = +-1: r(j,j) = cos(a -+ c) and r(j,k) = -sin(a -+ c), so only
    // a - c (b = +pi/2) or a + c (b = -pi/2) is fixed; c is chosen, a follows.
    const phi = Math.atan2(-m[k * 3 + j]!, m[j * 3 + j]!);
    b1 = Math.atan2(-rki, cy);
    c1 = prefer === undefined ? 0 : sg * prefer[k]!;
    a1 = b1 > 0 ? phi + c1 : phi - c1;
    a2 = a1;
    b2 = b1;
    c2 = c1;
  }
  a1 *= sg;
  b1 *= sg;
  c1 *= sg;
  a2 *= sg;
  b2 *= sg;
  c2 *= sg;
  let pick2: boolean;
  if (prefer === undefined) {
    pick2 = Math.abs(a2) + Math.abs(b2) + Math.abs(c2) < Math.abs(a1) + Math.abs(b1) + Math.abs(c1);
  } else {
    const pa = prefer[i]!,
      pb = prefer[j]!,
      pc = prefer[k]!;
    a1 = wrapNear(a1, pa);
    b1 = wrapNear(b1, pb);
    c1 = wrapNear(c1, pc);
    a2 = wrapNear(a2, pa);
    b2 = wrapNear(b2, pb);
    c2 = wrapNear(c2, pc);
    const d1 = Math.abs(a1 - pa) + Math.abs(b1 - pb) + Math.abs(c1 - pc);
    const d2 = Math.abs(a2 - pa) + Math.abs(b2 - pb) + Math.abs(c2 - pc);
    pick2 = d2 < d1;
  }
  // `+ 0` turns -0 into 0.
  out[i] = (pick2 ? a2 : a1) + 0;
  out[j] = (pick2 ? b2 : b1) + 0;
  out[k] = (pick2 ? c2 : c1) + 0;
  return out;
}

const scratch = new Float64Array(9);

/**
 * The unit quaternion (XYZW) of Euler angles `[x, y, z]` in a Blender rotation mode.
 *
 * ```ts
 * quatFromEuler(q, [0.1, 0.2, 0.3], 'XYZ');
 * ```
 */
export function quatFromEuler<T extends Out>(out: T, e: ArrayLike<number>, order: EulerOrder = 'XYZ'): T {
  const ax = axesOf('quatFromEuler', order);
  const i = ax[0],
    j = ax[1],
    k = ax[2],
    odd = ax[3];
  const eps = odd ? -1 : 1; // e_k x e_i = eps e_j, e_j x e_i = -eps e_k
  const ha = e[i]! / 2,
    hb = e[j]! / 2,
    hc = e[k]! / 2;
  const sa = Math.sin(ha),
    ca = Math.cos(ha);
  const sb = Math.sin(hb),
    cb = Math.cos(hb);
  const sc = Math.sin(hc),
    cc = Math.cos(hc);
  // p = qj(b) * qi(a), then out = qk(c) * p.
  const pi = cb * sa,
    pj = sb * ca,
    pk = -eps * sb * sa,
    pw = cb * ca;
  out[i] = cc * pi - eps * sc * pj;
  out[j] = cc * pj + eps * sc * pi;
  out[k] = cc * pk + sc * pw;
  out[3] = cc * pw - sc * pk;
  return out;
}

/**
 * Euler angles `[x, y, z]` of a unit quaternion in a Blender rotation mode; `prefer` as in
 * {@link eulerFromMat3}.
 *
 * ```ts
 * eulerFromQuat(e, q, 'XYZ');
 * ```
 */
export function eulerFromQuat<T extends Out>(
  out: T,
  q: ArrayLike<number>,
  order: EulerOrder = 'XYZ',
  prefer?: ArrayLike<number>,
): T {
  mat3FromQuat(scratch, q);
  return eulerFromMat3(out, scratch, order, prefer);
}

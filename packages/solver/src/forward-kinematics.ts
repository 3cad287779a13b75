import { RigInfo, RigJson } from '@mocap/layout';
import { type RigModel, rigModelFromRigInfo, rigModelFromRigJson } from './rig-model.js';

/**
 * Writes Blender's `XYZ` Euler rotation `R = Rz * Ry * Rx` (column-major) of angles
 * `e[o..o+2]` into `out[oo..oo+8]`.
 */
export function eulerXyzToMat3(out: Float64Array, oo: number, e: ArrayLike<number>, o = 0): Float64Array {
  const cx = Math.cos(e[o] as number);
  const sx = Math.sin(e[o] as number);
  const cy = Math.cos(e[o + 1] as number);
  const sy = Math.sin(e[o + 1] as number);
  const cz = Math.cos(e[o + 2] as number);
  const sz = Math.sin(e[o + 2] as number);
  out[oo] = cz * cy;
  out[oo + 1] = sz * cy;
  out[oo + 2] = -sy;
  out[oo + 3] = cz * sy * sx - sz * cx;
  out[oo + 4] = sz * sy * sx + cz * cx;
  out[oo + 5] = cy * sx;
  out[oo + 6] = cz * sy * cx + sz * sx;
  out[oo + 7] = sz * sy * cx - cz * sx;
  out[oo + 8] = cy * cx;
  return out;
}

/**
 * `out[oo..] = a[ao..] * b[bo..]` for column-major 3 x 3 matrices (`out` must not alias).
 * Offsets rather than @mocap/anim-loop's `mat3Multiply`, which takes whole arrays: FK and the
 * fit multiply in place inside T x B x 9 arrays, where a subarray per product allocates (measured
 * 3-5x slower than this, 0.26 M products).
 */
export function mul3(
  out: Float64Array,
  oo: number,
  a: Float64Array,
  ao: number,
  b: Float64Array,
  bo: number,
): Float64Array {
  for (let c = 0; c < 3; c++) {
    const b0 = b[bo + c * 3] as number;
    const b1 = b[bo + c * 3 + 1] as number;
    const b2 = b[bo + c * 3 + 2] as number;
    out[oo + c * 3] = (a[ao] as number) * b0 + (a[ao + 3] as number) * b1 + (a[ao + 6] as number) * b2;
    out[oo + c * 3 + 1] =
      (a[ao + 1] as number) * b0 + (a[ao + 4] as number) * b1 + (a[ao + 7] as number) * b2;
    out[oo + c * 3 + 2] =
      (a[ao + 2] as number) * b0 + (a[ao + 5] as number) * b1 + (a[ao + 8] as number) * b2;
  }
  return out;
}

/** Rotation matrix (column-major) of a unit quaternion given as W, X, Y, Z at `q[o..o+3]`. */
export function quatWxyzToMat3(out: Float64Array, oo: number, q: ArrayLike<number>, o = 0): Float64Array {
  let w = q[o] as number;
  let x = q[o + 1] as number;
  let y = q[o + 2] as number;
  let z = q[o + 3] as number;
  const n = Math.hypot(w, x, y, z) || 1;
  w /= n;
  x /= n;
  y /= n;
  z /= n;
  out[oo] = 1 - 2 * (y * y + z * z);
  out[oo + 1] = 2 * (x * y + w * z);
  out[oo + 2] = 2 * (x * z - w * y);
  out[oo + 3] = 2 * (x * y - w * z);
  out[oo + 4] = 1 - 2 * (x * x + z * z);
  out[oo + 5] = 2 * (y * z + w * x);
  out[oo + 6] = 2 * (x * z + w * y);
  out[oo + 7] = 2 * (y * z - w * x);
  out[oo + 8] = 1 - 2 * (x * x + y * y);
  return out;
}

/**
 * Poses one frame exactly as Blender does (pose = parent pose x rest offset x Euler XYZ).
 * `rootRot` (9, column-major) rotates the root about its rest head in armature space
 * (motion.json's `root_quat`), `trans` (3) moves the root head from its rest position, and
 * `euler[eo + 3b ..]` holds bone b's Euler angles (the root's are ignored). Writes each bone's
 * posed rotation (`rot`, B x 9), posed head (`pos`, B x 3) and, when given, its frame before
 * its own Euler rotation (`pre`, B x 9: parent pose x rest offset).
 */
export function poseFrame(
  model: RigModel,
  rootRot: Float64Array,
  rootRotOffset: number,
  trans: ArrayLike<number>,
  transOffset: number,
  euler: ArrayLike<number>,
  eulerOffset: number,
  rot: Float64Array,
  pos: Float64Array,
  pre?: Float64Array,
): void {
  const b = model.bones.length;
  const e = scratch;
  mul3(rot, 0, rootRot, rootRotOffset, model.restRot, 0);
  if (pre) mul3(pre, 0, rootRot, rootRotOffset, model.restRot, 0);
  for (let k = 0; k < 3; k++) pos[k] = (model.restHead[k] as number) + (trans[transOffset + k] as number);
  for (let i = 1; i < b; i++) {
    const p = model.parent[i] as number;
    const m = pre ?? e.m;
    const mo = pre ? i * 9 : 0;
    mul3(m, mo, rot, p * 9, model.localRot, i * 9);
    eulerXyzToMat3(e.r, 0, euler, eulerOffset + i * 3);
    mul3(rot, i * 9, m, mo, e.r, 0);
    const ox = model.localOffset[i * 3] as number;
    const oy = model.localOffset[i * 3 + 1] as number;
    const oz = model.localOffset[i * 3 + 2] as number;
    for (let r = 0; r < 3; r++) {
      pos[i * 3 + r] =
        (pos[p * 3 + r] as number) +
        (rot[p * 9 + r] as number) * ox +
        (rot[p * 9 + 3 + r] as number) * oy +
        (rot[p * 9 + 6 + r] as number) * oz;
    }
  }
}

const scratch = { m: new Float64Array(9), r: new Float64Array(9) };

/** Writes the keypoints (K x 3) of a posed frame from bone rotations and heads. */
export function keypointsFromPose(
  model: RigModel,
  rot: Float64Array,
  pos: Float64Array,
  out: Float64Array,
  outOffset = 0,
): Float64Array {
  const kb = model.keyBone;
  const kt = model.keyTail;
  for (let j = 0; j < kb.length; j++) {
    const o = outOffset + j * 3;
    const b = kb[j] as number;
    if (!kt[j]) {
      out[o] = pos[b * 3] as number;
      out[o + 1] = pos[b * 3 + 1] as number;
      out[o + 2] = pos[b * 3 + 2] as number;
    } else {
      const l = model.length[b] as number;
      out[o] = (pos[b * 3] as number) + (rot[b * 9 + 3] as number) * l;
      out[o + 1] = (pos[b * 3 + 1] as number) + (rot[b * 9 + 4] as number) * l;
      out[o + 2] = (pos[b * 3 + 2] as number) + (rot[b * 9 + 5] as number) * l;
    }
  }
  return out;
}

/** A motion as motion.json holds it (nested arrays; `root_quat` W, X, Y, Z; `euler` T x B x 3 radians). */
export interface MotionPose {
  trans: ArrayLike<ArrayLike<number>>;
  root_quat: ArrayLike<ArrayLike<number>>;
  euler: ArrayLike<ArrayLike<ArrayLike<number>>>;
}

/** What {@link forwardKinematics} returns, flat and C-ordered. */
export interface PosedFrames {
  frames: number;
  /** Keypoint names (K), in the rig model's keypoint order. */
  names: string[];
  /** Keypoint positions, T x K x 3, metres. */
  joints: Float64Array;
  /** Posed bone heads, T x B x 3, metres. */
  heads: Float64Array;
  /** Posed bone tails, T x B x 3, metres. */
  tails: Float64Array;
  /** Posed bone rotations in armature space, T x B x 9 (column-major). */
  rotations: Float64Array;
}

/** Builds a {@link RigModel} from a rig model, a validated `rig_info.json` or a validated `rig.json`. */
export function toRigModel(rig: RigModel | RigInfo | RigJson): RigModel {
  if ('restRot' in rig) return rig;
  if ('keypoints' in rig) return rigModelFromRigInfo(RigInfo.parse(rig));
  return rigModelFromRigJson(RigJson.parse(rig));
}

/**
 * Forward kinematics of a motion (motion.json's `trans`, `root_quat`, `euler`) on a rig
 * (a {@link RigModel}, `rig_info.json` with Blender's `matrix_local`, or `rig.json` with rest
 * matrices rebuilt by `boneRestMatrix`): the posed joints (keypoints), heads, tails and bone
 * rotations of every frame, exactly as Blender's pose would put them.
 *
 * ```ts
 * const posed = forwardKinematics(rigJson, motion);
 * posed.joints; // T x K x 3 metres
 * ```
 */
export function forwardKinematics(rig: RigModel | RigInfo | RigJson, motion: MotionPose): PosedFrames {
  const model = toRigModel(rig);
  const t = motion.trans.length;
  const b = model.bones.length;
  const k = model.keypoints.length;
  if (motion.root_quat.length !== t || motion.euler.length !== t) {
    throw new RangeError(
      `forwardKinematics: trans has ${t} frames, root_quat ${motion.root_quat.length}, euler ${motion.euler.length}.`,
    );
  }
  const out: PosedFrames = {
    frames: t,
    names: model.keypoints.map((x) => x.name),
    joints: new Float64Array(t * k * 3),
    heads: new Float64Array(t * b * 3),
    tails: new Float64Array(t * b * 3),
    rotations: new Float64Array(t * b * 9),
  };
  const rootRot = new Float64Array(9);
  const euler = new Float64Array(b * 3);
  const rot = new Float64Array(b * 9);
  const pos = new Float64Array(b * 3);
  for (let f = 0; f < t; f++) {
    const e = motion.euler[f] as ArrayLike<ArrayLike<number>>;
    if (e.length !== b) {
      throw new RangeError(`forwardKinematics: euler[${f}] has ${e.length} bones, the rig has ${b}.`);
    }
    for (let i = 0; i < b; i++)
      for (let a = 0; a < 3; a++) euler[i * 3 + a] = (e[i] as ArrayLike<number>)[a] as number;
    quatWxyzToMat3(rootRot, 0, motion.root_quat[f] as ArrayLike<number>);
    poseFrame(model, rootRot, 0, motion.trans[f] as ArrayLike<number>, 0, euler, 0, rot, pos);
    keypointsFromPose(model, rot, pos, out.joints, f * k * 3);
    out.heads.set(pos, f * b * 3);
    out.rotations.set(rot, f * b * 9);
    for (let i = 0; i < b; i++) {
      const l = model.length[i] as number;
      for (let r = 0; r < 3; r++) {
        out.tails[(f * b + i) * 3 + r] = (pos[i * 3 + r] as number) + (rot[i * 9 + 3 + r] as number) * l;
      }
    }
  }
  return out;
}

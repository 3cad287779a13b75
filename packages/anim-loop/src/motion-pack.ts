import type { MotionJson, QuatWxyz, Vec3 } from '@mocap/layout';
import { eulerFromQuat, quatFromEuler } from './euler.js';
import { quatNormalize } from './quat.js';
import { quatTrackContinuity } from './quat-interp.js';

/**
 * The kinematic part of a motion.json: what loops, resampling and time-warps read and write
 * (fitted joints and reports are not carried: recompute them by forward kinematics).
 */
export type MotionCore = Pick<MotionJson, 'fps' | 'bones' | 'trans' | 'root_quat' | 'euler'>;

/**
 * A motion in flat Float64Array tracks (T frames, B bones): root displacement `trans`
 * (T x 3), root rotation `root` (T x 4, XYZW, sign-continuous), each bone's pose rotation
 * `rot` (T x B x 4, XYZW, from Blender XYZ Euler, sign-continuous per bone), and the Euler
 * angles `euler` (T x B x 3) it came from.
 */
export interface PackedMotion {
  fps: number;
  bones: string[];
  frames: number;
  trans: Float64Array;
  root: Float64Array;
  rot: Float64Array;
  euler: Float64Array;
}

/**
 * Packs a motion's nested arrays into flat tracks, checking their shapes. Throws a
 * `RangeError` naming the field and frame that disagree.
 *
 * ```ts
 * const p = packMotion('resample', motion);
 * ```
 */
export function packMotion(op: string, motion: MotionCore): PackedMotion {
  const T = motion.trans.length;
  const B = motion.bones.length;
  if (!(motion.fps > 0)) throw new RangeError(`${op}: motion.fps must be > 0, got ${motion.fps}.`);
  if (T < 1) throw new RangeError(`${op}: motion has no frames.`);
  if (motion.root_quat.length !== T || motion.euler.length !== T) {
    throw new RangeError(
      `${op}: motion has ${T} trans frames, ${motion.root_quat.length} root_quat frames and ${motion.euler.length} euler frames.`,
    );
  }
  const p: PackedMotion = {
    fps: motion.fps,
    bones: [...motion.bones],
    frames: T,
    trans: new Float64Array(T * 3),
    root: new Float64Array(T * 4),
    rot: new Float64Array(T * B * 4),
    euler: new Float64Array(T * B * 3),
  };
  for (let t = 0; t < T; t++) {
    p.trans.set(motion.trans[t]!, t * 3);
    const [w, x, y, z] = motion.root_quat[t]!;
    const r = p.root.subarray(t * 4, t * 4 + 4);
    r[0] = x;
    r[1] = y;
    r[2] = z;
    r[3] = w;
    quatNormalize(r, r);
    const row = motion.euler[t]!;
    if (row.length !== B)
      throw new RangeError(`${op}: motion.euler[${t}] has ${row.length} bones, bones has ${B}.`);
    for (let b = 0; b < B; b++) {
      const e = row[b]!;
      p.euler.set(e, (t * B + b) * 3);
      quatFromEuler(p.rot.subarray((t * B + b) * 4, (t * B + b) * 4 + 4), e, 'XYZ');
    }
  }
  quatTrackContinuity(p.root, T);
  for (let b = 0; b < B; b++) quatTrackContinuity(p.rot.subarray(b * 4), T, B * 4);
  return p;
}

/**
 * Unpacks flat tracks into a {@link MotionCore}. Euler angles come from `rot`; each is chosen
 * nearest `prefer` (T x B x 3, e.g. the source Euler angles at that time) when given, else
 * nearest the previous frame's, so angle tracks stay continuous.
 *
 * ```ts
 * const motion = unpackMotion(p);
 * ```
 */
export function unpackMotion(p: PackedMotion, prefer?: Float64Array): MotionCore {
  const T = p.frames;
  const B = p.bones.length;
  const trans: Vec3[] = [];
  const root: QuatWxyz[] = [];
  const euler: Vec3[][] = [];
  const e = new Float64Array(3);
  const prev = new Float64Array(B * 3);
  for (let t = 0; t < T; t++) {
    trans.push([p.trans[t * 3]!, p.trans[t * 3 + 1]!, p.trans[t * 3 + 2]!]);
    root.push([p.root[t * 4 + 3]!, p.root[t * 4]!, p.root[t * 4 + 1]!, p.root[t * 4 + 2]!]);
    const row: Vec3[] = [];
    for (let b = 0; b < B; b++) {
      const k = t * B + b;
      const pref = prefer
        ? prefer.subarray(k * 3, k * 3 + 3)
        : t > 0
          ? prev.subarray(b * 3, b * 3 + 3)
          : undefined;
      eulerFromQuat(e, p.rot.subarray(k * 4, k * 4 + 4), 'XYZ', pref);
      prev.set(e, b * 3);
      row.push([e[0]!, e[1]!, e[2]!]);
    }
    euler.push(row);
  }
  return { fps: p.fps, bones: [...p.bones], trans, root_quat: root, euler };
}

import { type MotionCore, type PackedMotion, packMotion, unpackMotion } from './motion-pack.js';
import { quatSlerp } from './quat-interp.js';
import type { Out } from './types.js';

/**
 * Samples a track of `count` vectors of `channels` numbers (frame-major) at fractional frame
 * `t` (clamped to [0, count - 1]) by linear interpolation into `out`.
 *
 * ```ts
 * sampleTrack(p, trans, 3, frames, 12.5);
 * ```
 */
export function sampleTrack<T extends Out>(
  out: T,
  track: ArrayLike<number>,
  channels: number,
  count: number,
  t: number,
): T {
  const tc = Math.min(Math.max(t, 0), count - 1);
  const i = Math.min(Math.floor(tc), Math.max(count - 2, 0));
  const f = count > 1 ? tc - i : 0;
  const j = Math.min(i + 1, count - 1);
  for (let c = 0; c < channels; c++) {
    const a = track[i * channels + c]!,
      b = track[j * channels + c]!;
    out[c] = f === 0 ? a : a + (b - a) * f;
  }
  return out;
}

/**
 * Samples a quaternion track (`count` XYZW quaternions, `stride` numbers apart, default 4)
 * at fractional frame `t` (clamped) by slerp along the shorter arc.
 *
 * ```ts
 * sampleQuatTrack(q, rootQuats, frames, 12.5);
 * ```
 */
export function sampleQuatTrack<T extends Out>(
  out: T,
  track: Float64Array,
  count: number,
  t: number,
  stride = 4,
): T {
  const tc = Math.min(Math.max(t, 0), count - 1);
  const i = Math.min(Math.floor(tc), Math.max(count - 2, 0));
  const f = count > 1 ? tc - i : 0;
  const j = Math.min(i + 1, count - 1);
  return quatSlerp(
    out,
    track.subarray(i * stride, i * stride + 4),
    track.subarray(j * stride, j * stride + 4),
    f,
  );
}

/**
 * A packed motion sampled at the fractional source frames `times` (one per output frame):
 * translation linearly, rotations by slerp; also returns the linearly interpolated source
 * Euler angles, the preferred solutions when unpacking.
 *
 * ```ts
 * const { packed, prefer } = samplePacked(p, times, fps);
 * ```
 */
export function samplePacked(
  p: PackedMotion,
  times: ArrayLike<number>,
  fps: number,
): { packed: PackedMotion; prefer: Float64Array } {
  const B = p.bones.length;
  const n = times.length;
  const out: PackedMotion = {
    fps,
    bones: [...p.bones],
    frames: n,
    trans: new Float64Array(n * 3),
    root: new Float64Array(n * 4),
    rot: new Float64Array(n * B * 4),
    euler: new Float64Array(n * B * 3),
  };
  for (let k = 0; k < n; k++) {
    const t = times[k]!;
    sampleTrack(out.trans.subarray(k * 3, k * 3 + 3), p.trans, 3, p.frames, t);
    sampleQuatTrack(out.root.subarray(k * 4, k * 4 + 4), p.root, p.frames, t);
    for (let b = 0; b < B; b++) {
      const o = (k * B + b) * 4;
      sampleQuatTrack(out.rot.subarray(o, o + 4), p.rot.subarray(b * 4), p.frames, t, B * 4);
    }
    sampleTrack(out.euler.subarray(k * B * 3, (k + 1) * B * 3), p.euler, B * 3, p.frames, t);
  }
  return { packed: out, prefer: out.euler };
}

/**
 * A motion resampled to `fps` over the same duration (`floor((T - 1) * fps / motion.fps) + 1`
 * frames, the first at time 0): root displacement interpolated linearly, root and bone
 * rotations by slerp, Euler angles kept continuous. Throws a `RangeError` for a bad `fps`.
 *
 * ```ts
 * const at30 = resampleMotion(motion, 30);
 * ```
 */
export function resampleMotion(motion: MotionCore, fps: number): MotionCore {
  if (!(fps > 0) || !Number.isFinite(fps)) {
    throw new RangeError(`resampleMotion: fps must be a finite number > 0, got ${fps}.`);
  }
  const p = packMotion('resampleMotion', motion);
  const ratio = motion.fps / fps;
  const n = Math.floor(((p.frames - 1) * fps) / motion.fps + 1e-9) + 1;
  const times = new Float64Array(n);
  for (let k = 0; k < n; k++) times[k] = Math.min(k * ratio, p.frames - 1);
  const { packed, prefer } = samplePacked(p, times, fps);
  return unpackMotion(packed, prefer);
}

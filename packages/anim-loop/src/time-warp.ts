import { type MotionCore, packMotion, unpackMotion } from './motion-pack.js';
import { samplePacked, sampleQuatTrack, sampleTrack } from './resample.js';

/**
 * Checks a time map: finite, non-decreasing source frame times within [0, count - 1].
 * Throws a `RangeError` naming the operation, the index and the bad value.
 */
function checkTimes(op: string, times: ArrayLike<number>, count: number): void {
  for (let k = 0; k < times.length; k++) {
    const t = times[k]!;
    if (!Number.isFinite(t) || t < 0 || t > count - 1) {
      throw new RangeError(`${op}: times[${k}] is ${t}; source times must lie in [0, ${count - 1}].`);
    }
    if (k > 0 && t < times[k - 1]!) {
      throw new RangeError(
        `${op}: times[${k}] = ${t} is before times[${k - 1}] = ${times[k - 1]}; a warp is monotone.`,
      );
    }
  }
}

/**
 * The source time of each target frame from a warp path: `path` lists `[source, target]`
 * frame pairs (as dynamic time warping returns them), both non-decreasing. Each target frame
 * takes the mean source frame of its pairs; target frames the path skips are interpolated.
 * Throws a `RangeError` for an empty or non-monotone path.
 *
 * ```ts
 * const times = warpPathToTimes([[0, 0], [1, 0], [2, 1], [4, 2]], 3); // [0.5, 2, 4]
 * ```
 */
export function warpPathToTimes(path: ReadonlyArray<readonly [number, number]>, count: number): Float64Array {
  if (path.length === 0) throw new RangeError('warpPathToTimes: the warp path is empty.');
  const sum = new Float64Array(count);
  const n = new Float64Array(count);
  for (let k = 0; k < path.length; k++) {
    const [s, t] = path[k]!;
    if (k > 0 && (s < path[k - 1]![0] || t < path[k - 1]![1])) {
      throw new RangeError(`warpPathToTimes: path[${k}] = [${s}, ${t}] goes back from [${path[k - 1]}].`);
    }
    if (!Number.isInteger(t) || t < 0 || t >= count) {
      throw new RangeError(`warpPathToTimes: path[${k}] target ${t} is not a frame in [0, ${count - 1}].`);
    }
    sum[t] += s;
    n[t] += 1;
  }
  const times = new Float64Array(count);
  let last = -1;
  for (let t = 0; t < count; t++) {
    if (n[t]! === 0) continue;
    times[t] = sum[t]! / n[t]!;
    if (last < 0) for (let u = 0; u < t; u++) times[u] = times[t]!;
    else
      for (let u = last + 1; u < t; u++)
        times[u] = times[last]! + ((times[t]! - times[last]!) * (u - last)) / (t - last);
    last = t;
  }
  for (let u = last + 1; u < count; u++) times[u] = times[last]!;
  return times;
}

/**
 * A track of `count` vectors of `channels` numbers warped in time: output frame k is the
 * source sampled at fractional frame `times[k]` (linear). `times` must be non-decreasing and
 * within the track. Returns `out` (`times.length * channels` numbers), which must not share
 * memory with `track` (a warp may read a frame after writing over it).
 *
 * ```ts
 * timeWarpTrack(warped, frontUv, 2 * joints, frames, times);
 * ```
 */
export function timeWarpTrack(
  out: Float64Array,
  track: ArrayLike<number>,
  channels: number,
  count: number,
  times: ArrayLike<number>,
): Float64Array {
  checkTimes('timeWarpTrack', times, count);
  for (let k = 0; k < times.length; k++) {
    sampleTrack(out.subarray(k * channels, (k + 1) * channels), track, channels, count, times[k]!);
  }
  return out;
}

/**
 * A quaternion track (`count` XYZW quaternions) warped in time by slerp; as
 * {@link timeWarpTrack} (`out` must not share memory with `track`).
 *
 * ```ts
 * timeWarpQuatTrack(warped, rootQuats, frames, times);
 * ```
 */
export function timeWarpQuatTrack(
  out: Float64Array,
  track: Float64Array,
  count: number,
  times: ArrayLike<number>,
): Float64Array {
  checkTimes('timeWarpQuatTrack', times, count);
  for (let k = 0; k < times.length; k++)
    sampleQuatTrack(out.subarray(k * 4, k * 4 + 4), track, count, times[k]!);
  return out;
}

/**
 * A motion warped in time: output frame k is the motion at source frame `times[k]`
 * (non-decreasing, within the motion), rotations by slerp. The frame rate is kept.
 *
 * ```ts
 * const aligned = timeWarpMotion(motion, warpPathToTimes(path, frames));
 * ```
 */
export function timeWarpMotion(motion: MotionCore, times: ArrayLike<number>): MotionCore {
  const p = packMotion('timeWarpMotion', motion);
  checkTimes('timeWarpMotion', times, p.frames);
  const { packed, prefer } = samplePacked(p, times, motion.fps);
  return unpackMotion(packed, prefer);
}

import type { Detections, MotionJson } from '@mocap/layout';

/**
 * Where a clip's frames stand in the time of the source they were picked from: a clip resampled
 * to a lower rate by taking the nearest source frame (30 -> 24 fps shows source frames 0, 1, 3,
 * 4, 5, 6, 8, ...) steps unevenly through time, though its file says every step is the same.
 */
export interface FrameTiming {
  /** The source's frame rate. */
  sourceFps: number;
  /** The source frame each clip frame shows (T, increasing, the first 0). */
  sourceFrames: Int32Array;
  /** The tracks' jerk under this timing over that under even steps (under 1: explained better). */
  ratio: number;
}

/** Options of {@link estimateFrameTiming}. */
export interface FrameTimingOptions {
  /** Source rates tried. @default FRAME_TIMING_RATES */
  rates?: readonly number[];
  /** A timing is kept when its misfit is at most this share of even steps'. @default 0.85 */
  accept?: number;
  /** Keypoints below this confidence (either view) are left out. @default 0.5 */
  minConf?: number;
}

/** The source rates {@link estimateFrameTiming} tries by default: film, PAL and NTSC, and their doubles. */
export const FRAME_TIMING_RATES: readonly number[] = Object.freeze([24, 25, 30, 48, 50, 60]);

const PHASES = 20;
/** Squared px per frame^3 a keypoint's jerk is capped at (a swapped or lost keypoint says nothing of time). */
const CAP_PX2 = 400;
const MIN_FRAMES = 8;

/**
 * Finds whether a clip's frames were picked unevenly from a faster source, from how its tracks
 * move: under the right timing each keypoint's acceleration changes smoothly from frame to frame,
 * under the wrong one a long step reads as a jerk. Every rate of
 * `rates` above the clip's (not a whole multiple of it: those pick evenly) is tried at 20 phases;
 * the timing with the lowest misfit is returned when it is under `accept` of even steps', else
 * null (even steps, as the file says).
 *
 * ```ts
 * const timing = estimateFrameTiming(det); // { sourceFps: 30, sourceFrames: [0, 1, 3, 4, ...] } or null
 * ```
 */
export function estimateFrameTiming(det: Detections, options: FrameTimingOptions = {}): FrameTiming | null {
  const rates = options.rates ?? FRAME_TIMING_RATES;
  const accept = options.accept ?? 0.85;
  const minConf = options.minConf ?? 0.5;
  const t = det.frames;
  if (t < MIN_FRAMES) return null;
  const steps = new Float64Array(t - 1);
  const even = misfit(det, steps.fill(1), minConf);
  if (!(even > 0)) return null;
  let best: FrameTiming | null = null;
  for (const fps of rates) {
    const r = fps / det.fps;
    if (r < 1.05 || Math.abs(r - Math.round(r)) < 1e-6) continue;
    for (let p = 0; p < PHASES; p++) {
      const frames = sourceFrames(t, r, p / PHASES);
      for (let k = 0; k + 1 < t; k++) steps[k] = frames[k + 1] - frames[k];
      const ratio = misfit(det, steps, minConf) / even;
      if (ratio <= accept && (!best || ratio < best.ratio))
        best = { sourceFps: fps, sourceFrames: frames, ratio };
    }
  }
  return best;
}

/** The source frame of each of `t` frames picked nearest to times k * r + phase (source frames), from 0. */
function sourceFrames(t: number, r: number, phase: number): Int32Array {
  const out = new Int32Array(t);
  const first = Math.round(phase);
  for (let k = 0; k < t; k++) out[k] = Math.round(k * r + phase) - first;
  return out;
}

/**
 * Sum over frames and confident keypoints (both views) of the squared change of acceleration from
 * one frame to the next, by divided differences at the instants `steps` apart (capped): a step
 * twice as long as its neighbours reads as a jerk spike under even steps.
 */
function misfit(det: Detections, steps: Float64Array, minConf: number): number {
  const j = det.names.length;
  const { frontUv: fu, sideUv: su, frontConf: fc, sideConf: sc } = det;
  let mean = 0;
  for (let k = 0; k < steps.length; k++) mean += steps[k] / steps.length;
  let sum = 0;
  for (let k = 1; k + 2 < det.frames; k++) {
    const d0 = steps[k - 1] / mean;
    const d1 = steps[k] / mean;
    const d2 = steps[k + 1] / mean;
    const m01 = (d0 + d1) / 2;
    const m12 = (d1 + d2) / 2;
    for (let q = 0; q < j; q++) {
      const a = (k - 1) * j + q;
      const b = a + j;
      const c = b + j;
      const e = c + j;
      if (Math.min(fc[a], fc[b], fc[c], fc[e], sc[a], sc[b], sc[c], sc[e]) < minConf) continue;
      const jerk = jerk2(fu, a, b, c, e, d0, d1, d2, m01, m12) + jerk2(su, a, b, c, e, d0, d1, d2, m01, m12);
      sum += Math.min(jerk, CAP_PX2);
    }
  }
  return sum;
}

/** The squared change of acceleration of one keypoint's track (x, y pairs at a, b, c, e) over steps d0, d1, d2. */
function jerk2(
  uv: Float32Array,
  a: number,
  b: number,
  c: number,
  e: number,
  d0: number,
  d1: number,
  d2: number,
  m01: number,
  m12: number,
): number {
  let out = 0;
  for (let d = 0; d < 2; d++) {
    const v0 = (uv[2 * b + d] - uv[2 * a + d]) / d0;
    const v1 = (uv[2 * c + d] - uv[2 * b + d]) / d1;
    const v2 = (uv[2 * e + d] - uv[2 * c + d]) / d2;
    out += ((v2 - v1) / m12 - (v1 - v0) / m01) ** 2;
  }
  return out;
}

/**
 * The detections on the source's time grid: frame `sourceFrames[k]` holds clip frame k, the
 * frames between are the nearest clip frame's positions at confidence 0 (placed by the fit's
 * priors), and `fps` is the source's.
 *
 * ```ts
 * const grid = detectionsOnSourceGrid(det, timing);
 * ```
 */
export function detectionsOnSourceGrid(det: Detections, timing: FrameTiming): Detections {
  const j = det.names.length;
  const src = timing.sourceFrames;
  const t = det.frames;
  const n = src[t - 1] + 1;
  const out: Detections = {
    ...det,
    fps: timing.sourceFps,
    frames: n,
    frontUv: new Float32Array(n * j * 2),
    sideUv: new Float32Array(n * j * 2),
    frontConf: new Float32Array(n * j),
    sideConf: new Float32Array(n * j),
    calibFrames: undefined,
  };
  let k = 0;
  for (let s = 0; s < n; s++) {
    while (k + 1 < t && Math.abs(src[k + 1] - s) <= Math.abs(src[k] - s)) k++;
    out.frontUv.set(det.frontUv.subarray(k * j * 2, (k + 1) * j * 2), s * j * 2);
    out.sideUv.set(det.sideUv.subarray(k * j * 2, (k + 1) * j * 2), s * j * 2);
    if (src[k] !== s) continue;
    out.frontConf.set(det.frontConf.subarray(k * j, (k + 1) * j), s * j);
    out.sideConf.set(det.sideConf.subarray(k * j, (k + 1) * j), s * j);
  }
  return out;
}

/**
 * One line for a person: what motion.json's `frame_timing` says about the clip.
 *
 * ```ts
 * if (motion.frame_timing) console.log(describeFrameTiming(motion.frame_timing));
 * ```
 */
export function describeFrameTiming(timing: NonNullable<MotionJson['frame_timing']>): string {
  const n = timing.source_frames.length;
  const span = (timing.source_frames[n - 1] ?? 0) + 1;
  return (
    `frame timing: ${n} frames picked unevenly from a ${timing.source_fps} fps source ` +
    `(over ${span} of its frames); fitted on its time grid`
  );
}

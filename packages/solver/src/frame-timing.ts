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
  /** A timing is kept when its tracks' jerk is at most this share of even steps'. @default 0.85 */
  accept?: number;
  /** Keypoints below this confidence (either view) are left out. @default 0.5 */
  minConf?: number;
}

/** The source rates {@link estimateFrameTiming} tries by default: film, PAL, NTSC and 60 (a 30 fps clip has none to try, so costs nothing). */
export const FRAME_TIMING_RATES: readonly number[] = Object.freeze([24, 25, 30, 60]);

const PHASES = 20;
/** Squared px per frame^3 a keypoint's jerk is capped at (a swapped or lost keypoint says nothing of time). */
const CAP_PX2 = 400;
const MIN_FRAMES = 8;

/**
 * Finds whether a clip's frames were picked unevenly from a faster source, from how its tracks
 * move: under the right timing each keypoint's acceleration changes smoothly from frame to frame,
 * under the wrong one a long step reads as a jerk. Every rate of `rates` above the clip's (not a
 * whole multiple of it: those pick evenly) is tried at 20 phases; the timing with the least jerk
 * is returned when that is at most `accept` of even steps', else null (even steps, as the file
 * says).
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
  // a whole multiple of the clip's rate picks evenly
  const sources = rates.filter((fps) => {
    const r = fps / det.fps;
    return r >= 1.05 && Math.abs(r - Math.round(r)) > 1e-6;
  });
  if (t < MIN_FRAMES || sources.length === 0) return null;
  const tracks = confidentTracks(det, minConf);
  const steps = new Float64Array(t - 1);
  const even = misfit(tracks, steps.fill(1));
  if (!(even > 0)) return null;
  let best: FrameTiming | null = null;
  for (const fps of sources) {
    const r = fps / det.fps;
    const tried = new Set<string>();
    for (let p = 0; p < PHASES; p++) {
      const frames = sourceFrames(t, r, p / PHASES);
      for (let k = 0; k + 1 < t; k++) steps[k] = frames[k + 1] - frames[k];
      // phases that pick the same frames give the same misfit
      const key = steps.join();
      if (tried.has(key)) continue;
      tried.add(key);
      const ratio = misfit(tracks, steps) / even;
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

/** Every run of four frames in which a keypoint is confident in both views: its second frame and its three steps (front u, v, side u, v each). */
interface Tracks {
  frame: Int32Array;
  steps: Float64Array;
}

function confidentTracks(det: Detections, minConf: number): Tracks {
  const j = det.names.length;
  const { frontUv: fu, sideUv: su, frontConf: fc, sideConf: sc } = det;
  const frame: number[] = [];
  const steps: number[] = [];
  for (let k = 1; k + 2 < det.frames; k++) {
    for (let q = 0; q < j; q++) {
      const a = (k - 1) * j + q;
      if (Math.min(fc[a], fc[a + j], fc[a + 2 * j], fc[a + 3 * j]) < minConf) continue;
      if (Math.min(sc[a], sc[a + j], sc[a + 2 * j], sc[a + 3 * j]) < minConf) continue;
      frame.push(k);
      for (let s = 0; s < 3; s++) {
        const from = a + s * j;
        const to = from + j;
        steps.push(fu[2 * to] - fu[2 * from], fu[2 * to + 1] - fu[2 * from + 1]);
        steps.push(su[2 * to] - su[2 * from], su[2 * to + 1] - su[2 * from + 1]);
      }
    }
  }
  return { frame: Int32Array.from(frame), steps: Float64Array.from(steps) };
}

/**
 * Sum over the tracks of the squared change of acceleration from one frame to the next, by
 * divided differences at instants `dt` apart (in mean steps; capped): a step twice as long as its
 * neighbours reads as a jerk spike under even steps.
 */
function misfit(tracks: Tracks, dt: Float64Array): number {
  let mean = 0;
  for (let k = 0; k < dt.length; k++) mean += dt[k];
  mean /= dt.length;
  const { frame, steps } = tracks;
  let sum = 0;
  for (let i = 0; i < frame.length; i++) {
    const k = frame[i];
    const d0 = dt[k - 1] / mean;
    const d1 = dt[k] / mean;
    const d2 = dt[k + 1] / mean;
    const m01 = (d0 + d1) / 2;
    const m12 = (d1 + d2) / 2;
    let jerk = 0;
    for (let c = 12 * i; c < 12 * i + 4; c++) {
      const v0 = steps[c] / d0;
      const v1 = steps[c + 4] / d1;
      const v2 = steps[c + 8] / d2;
      jerk += ((v2 - v1) / m12 - (v1 - v0) / m01) ** 2;
    }
    sum += Math.min(jerk, CAP_PX2);
  }
  return sum;
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

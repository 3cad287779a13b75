import type { Detections, MotionJson } from '@mocap/layout';

/**
 * Where a clip's frames stand in the time of the source they were taken from: a clip resampled
 * by taking the nearest source frame steps unevenly through time, though its file says every step
 * is the same: to a lower rate it skips (30 -> 24 fps shows source frames 0, 1, 3, 4, 5, 6, 8,
 * ...), to a higher one it repeats (16 -> 30 fps shows 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, ...).
 */
export interface FrameTiming {
  /** The source's frame rate. */
  sourceFps: number;
  /** The source frame each clip frame shows (T, never decreasing, the first 0). */
  sourceFrames: Int32Array;
  /**
   * How well it explains the tracks, lower better: for a faster source, the tracks' jerk under
   * this timing over that under even steps; for a slower one, 1 - the F1 score of its repeats
   * against the clip's still steps (0: every repeat still, every still step a repeat).
   */
  ratio: number;
}

/** Options of {@link estimateFrameTiming}. */
export interface FrameTimingOptions {
  /** Faster source rates tried (frames skipped). @default FRAME_TIMING_RATES */
  rates?: readonly number[];
  /** Slower source rates tried (frames repeated). @default REPEAT_RATES */
  repeatRates?: readonly number[];
  /** A faster source's timing is kept when its tracks' jerk is at most this share of even steps'. @default 0.85 */
  accept?: number;
  /** A slower source's timing is kept when 1 - the F1 score of its repeats against the still steps is at most this. @default 0.2 */
  misread?: number;
  /** Keypoints below this confidence (either view) are left out. @default 0.5 */
  minConf?: number;
}

/** The source rates {@link estimateFrameTiming} tries by default: film, PAL, NTSC and 60 (a 30 fps clip has none to try, so costs nothing). */
export const FRAME_TIMING_RATES: readonly number[] = Object.freeze([24, 25, 30, 60]);

/** The slower source rates {@link estimateFrameTiming} tries by default: what video models and animation deliver. */
export const REPEAT_RATES: readonly number[] = Object.freeze([12, 15, 16, 20, 24, 25]);

const PHASES = 20;
/** A step is still under this share of the moving steps around it (their 75th percentile). */
const STILL_SHARE = 0.35;
/** Steps around a step that set its scale, each side. */
const SCALE_SPAN = 6;
/** Squared px per frame^3 a keypoint's jerk is capped at (a swapped or lost keypoint says nothing of time). */
const CAP_PX2 = 400;
const MIN_FRAMES = 8;

/**
 * Finds whether a clip's frames were taken unevenly from a source at another rate, from how its
 * tracks move, each rate at 20 phases. First repeats of a slower source (`repeatRates`): the
 * timing whose repeats match the steps where the confident keypoints stand still, if 1 - F1 is
 * at most `misread`. Then frames skipped from a faster one (`rates`, not a whole multiple of the
 * clip's: those pick evenly): under the right timing each keypoint's acceleration changes
 * smoothly, under the wrong one a long step reads as a jerk; the timing with the least jerk, if
 * at most `accept` of even steps'. Else null (even steps, as the file says).
 *
 * ```ts
 * const timing = estimateFrameTiming(det); // { sourceFps: 30, sourceFrames: [0, 1, 3, 4, ...] } or null
 * ```
 */
export function estimateFrameTiming(det: Detections, options: FrameTimingOptions = {}): FrameTiming | null {
  if (det.frames < MIN_FRAMES) return null;
  const minConf = options.minConf ?? 0.5;
  return (
    repeatedTiming(det, options.repeatRates ?? REPEAT_RATES, options.misread ?? 0.2, minConf) ??
    skippedTiming(det, options.rates ?? FRAME_TIMING_RATES, options.accept ?? 0.85, minConf)
  );
}

/** The distinct frame patterns of a source `r` times the clip's rate over its 20 phases. */
function* patterns(t: number, r: number): Generator<Int32Array> {
  const tried = new Set<number>();
  for (let p = 0; p < PHASES; p++) {
    const frames = sourceFrames(t, r, p / PHASES);
    let key = 0;
    for (let k = 0; k < t; k++) key = (Math.imul(key, 31) + frames[k]) | 0;
    if (tried.has(key)) continue;
    tried.add(key);
    yield frames;
  }
}

/** A faster source's frames picked unevenly: the timing whose tracks jerk least, if under `accept` of even steps'. */
function skippedTiming(
  det: Detections,
  rates: readonly number[],
  accept: number,
  minConf: number,
): FrameTiming | null {
  const t = det.frames;
  // a whole multiple of the clip's rate picks evenly
  const sources = rates.filter((fps) => {
    const r = fps / det.fps;
    return r >= 1.05 && Math.abs(r - Math.round(r)) > 1e-6;
  });
  if (sources.length === 0) return null;
  const tracks = confidentTracks(det, minConf);
  const steps = new Float64Array(t - 1);
  const even = misfit(tracks, steps.fill(1));
  if (!(even > 0)) return null;
  let best: FrameTiming | null = null;
  for (const fps of sources) {
    for (const frames of patterns(t, fps / det.fps)) {
      for (let k = 0; k + 1 < t; k++) steps[k] = frames[k + 1] - frames[k];
      const ratio = misfit(tracks, steps) / even;
      if (ratio <= accept && (!best || ratio < best.ratio))
        best = { sourceFps: fps, sourceFrames: frames, ratio };
    }
  }
  return best;
}

/**
 * A slower source's frames repeated: the timing whose repeats are the clip's still steps and
 * whose moves its moving ones, if 1 - the F1 score of the one against the other is at most
 * `misread`.
 */
function repeatedTiming(
  det: Detections,
  rates: readonly number[],
  misread: number,
  minConf: number,
): FrameTiming | null {
  const sources = rates.filter((fps) => fps / det.fps <= 0.95);
  if (sources.length === 0) return null;
  const still = stillSteps(det, minConf);
  let stills = 0;
  for (const v of still) if (v === 1) stills++;
  if (stills < 2) return null;
  let best: FrameTiming | null = null;
  for (const fps of sources) {
    for (const frames of patterns(det.frames, fps / det.fps)) {
      let both = 0;
      let repeats = 0;
      for (let k = 0; k < still.length; k++) {
        if (still[k] === 2 || frames[k + 1] !== frames[k]) continue;
        repeats++;
        if (still[k] === 1) both++;
      }
      if (repeats < 2) continue;
      // 1 - F1 of the repeats against the still steps: both must match, not one within the other
      const ratio = 1 - (2 * both) / (repeats + stills);
      if (ratio <= misread && (!best || ratio < best.ratio))
        best = { sourceFps: fps, sourceFrames: frames, ratio };
    }
  }
  return best;
}

/**
 * Per step between frames: 1 where the confident keypoints' median move (both views) is under
 * {@link STILL_SHARE} of the moving steps around it, 0 where it is over, 2 where too few
 * keypoints are confident or nothing around moves by 2 px (a creature standing still says
 * nothing of time).
 */
function stillSteps(det: Detections, minConf: number): Uint8Array {
  const j = det.names.length;
  const { frontUv: fu, sideUv: su, frontConf: fc, sideConf: sc } = det;
  const n = det.frames - 1;
  const move = new Float64Array(n).fill(Number.NaN);
  const d: number[] = [];
  for (let k = 0; k < n; k++) {
    d.length = 0;
    for (let q = 0; q < j; q++) {
      const a = k * j + q;
      const b = a + j;
      if (Math.min(fc[a], fc[b], sc[a], sc[b]) < minConf) continue;
      d.push(
        Math.hypot(
          fu[2 * b] - fu[2 * a],
          fu[2 * b + 1] - fu[2 * a + 1],
          su[2 * b] - su[2 * a],
          su[2 * b + 1] - su[2 * a + 1],
        ),
      );
    }
    if (d.length >= 3) move[k] = quantile(d, 0.5);
  }
  const out = new Uint8Array(n);
  const around: number[] = [];
  for (let k = 0; k < n; k++) {
    around.length = 0;
    for (let i = Math.max(0, k - SCALE_SPAN); i <= Math.min(n - 1, k + SCALE_SPAN); i++)
      if (!Number.isNaN(move[i])) around.push(move[i]);
    const scale = around.length >= 4 ? quantile(around, 0.75) : Number.NaN;
    out[k] = Number.isNaN(move[k]) || !(scale >= 2) ? 2 : move[k] < STILL_SHARE * scale ? 1 : 0;
  }
  return out;
}

/** The q-quantile of `v` (sorted in place), nearest rank. */
function quantile(v: number[], q: number): number {
  v.sort((x, y) => x - y);
  return v[Math.min(v.length - 1, Math.floor(q * v.length))] as number;
}

/** The source frame of each of `t` frames taken nearest to times k * r + phase (source frames), from 0. */
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
 * The detections on the source's time grid: frame `sourceFrames[k]` holds clip frame k (the
 * clip frames that repeat one source frame, their confidence-weighted mean), the frames between
 * are the nearest clip frame's positions at confidence 0 (placed by the fit's priors), and `fps`
 * is the source's.
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
  let i = 0; // the first clip frame at or after source frame s
  for (let s = 0; s < n; s++) {
    while (i < t && src[i] < s) i++;
    if (i >= t || src[i] !== s) {
      const k = i > 0 && (i >= t || s - src[i - 1] < src[i] - s) ? i - 1 : i;
      out.frontUv.set(det.frontUv.subarray(k * j * 2, (k + 1) * j * 2), s * j * 2);
      out.sideUv.set(det.sideUv.subarray(k * j * 2, (k + 1) * j * 2), s * j * 2);
      continue;
    }
    let last = i;
    while (last + 1 < t && src[last + 1] === s) last++;
    for (const [uv, conf, outUv, outConf] of [
      [det.frontUv, det.frontConf, out.frontUv, out.frontConf],
      [det.sideUv, det.sideConf, out.sideUv, out.sideConf],
    ] as const)
      meanOfRepeats(uv, conf, outUv, outConf, i, last, s, j);
  }
  return out;
}

/** One view's keypoints of clip frames `first..last` (one source frame, `s`): confidence-weighted mean position, the highest confidence. */
function meanOfRepeats(
  uv: Float32Array,
  conf: Float32Array,
  outUv: Float32Array,
  outConf: Float32Array,
  first: number,
  last: number,
  s: number,
  j: number,
): void {
  for (let q = 0; q < j; q++) {
    let w = 0;
    let u = 0;
    let v = 0;
    let best = 0;
    for (let k = first; k <= last; k++) {
      const c = conf[k * j + q];
      // a keypoint unseen in every repeat keeps the first repeat's position
      const wk = c > 0 ? c : k === first ? 1e-9 : 0;
      w += wk;
      u += wk * uv[2 * (k * j + q)];
      v += wk * uv[2 * (k * j + q) + 1];
      best = Math.max(best, c);
    }
    outUv[2 * (s * j + q)] = u / w;
    outUv[2 * (s * j + q) + 1] = v / w;
    outConf[s * j + q] = best;
  }
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
  const shown = new Set(timing.source_frames).size;
  const how = shown < n ? 'repeated' : 'picked unevenly';
  return (
    `frame timing: ${n} frames ${how} from a ${timing.source_fps} fps source ` +
    `(${shown} of its ${span} frames); fitted on its time grid`
  );
}

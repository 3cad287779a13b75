import type { SyncReport } from '@mocap/layout';
import { selectKth } from './linalg.js';

/** Observations of a clip in layout px, T x K x 2 per view, confidences T x K. */
export interface ViewData {
  t: number;
  k: number;
  front: Float64Array;
  side: Float64Array;
  frontConf: Float64Array;
  sideConf: Float64Array;
}

/** Feet agree between the views when their rows differ by at most this, px. */
const PAW_TOLERANCE_PX = 8;

/** At most this many (frame, joint) pairs enter one height-gap median (frames are strided beyond it). */
const GAP_SAMPLES = 4096;

/**
 * Median |v_front(t + lag) - v_side(t)| over joints confident in both views, px (null when
 * none). Long clips are sampled on a frame stride so that at most 4096 pairs enter.
 */
export function heightGap(d: ViewData, lag: number): number | null {
  const stride = Math.max(1, Math.ceil((d.t * d.k) / GAP_SAMPLES));
  const vals = new Float64Array(Math.ceil(d.t / stride) * d.k);
  const n = gapSamples(d, lag, stride, vals);
  if (n === 0) return null;
  const v = vals.subarray(0, n);
  const hi = selectKth(v, n >> 1);
  // For even n the lower middle is the largest value left of the upper one.
  if (n % 2) return hi;
  let lo = v[0] as number;
  for (let i = 1; i < n >> 1; i++) if ((v[i] as number) > lo) lo = v[i] as number;
  return (lo + hi) / 2;
}

/**
 * Fills `vals` with {@link heightGap}'s |row differences| and returns their count (its own
 * function, so the loop's compiled code is not thrown away after it at each of the lags).
 */
function gapSamples(d: ViewData, lag: number, stride: number, vals: Float64Array): number {
  let n = 0;
  for (let f = 0; f < d.t; f += stride) {
    const g = f + lag;
    if (g < 0 || g >= d.t) continue;
    for (let j = 0; j < d.k; j++) {
      if ((d.frontConf[g * d.k + j] as number) > 0 && (d.sideConf[f * d.k + j] as number) > 0) {
        vals[n++] = Math.abs(
          (d.front[2 * (g * d.k + j) + 1] as number) - (d.side[2 * (f * d.k + j) + 1] as number),
        );
      }
    }
  }
  return n;
}

/** Fraction of frames whose confident feet agree between the views' rows; null without feet. */
export function pawAgreement(d: ViewData, feet: ArrayLike<number>): number | null {
  if (feet.length === 0) return null;
  let frames = 0;
  let agree = 0;
  for (let f = 0; f < d.t; f++) {
    let seen = 0;
    let ok = true;
    for (let q = 0; q < feet.length; q++) {
      const i = f * d.k + (feet[q] as number);
      if (!((d.frontConf[i] as number) > 0 && (d.sideConf[i] as number) > 0)) continue;
      seen++;
      if (Math.abs((d.front[2 * i + 1] as number) - (d.side[2 * i + 1] as number)) > PAW_TOLERANCE_PX)
        ok = false;
    }
    if (seen === 0) continue;
    frames++;
    if (ok) agree++;
  }
  return frames === 0 ? null : agree / frames;
}

/** Shifts the front view by `lag` frames in place (front'(t) = front(t + lag)); frames beyond the clip get confidence 0. */
export function shiftFront(d: ViewData, lag: number): void {
  const { t, k } = d;
  const uv = Float64Array.from(d.front);
  const conf = Float64Array.from(d.frontConf);
  for (let f = 0; f < t; f++) {
    const g = f + lag;
    for (let j = 0; j < k; j++) {
      const i = f * k + j;
      if (g < 0 || g >= t) {
        d.frontConf[i] = 0;
        continue;
      }
      d.front[2 * i] = uv[2 * (g * k + j)] as number;
      d.front[2 * i + 1] = uv[2 * (g * k + j) + 1] as number;
      d.frontConf[i] = conf[g * k + j] as number;
    }
  }
}

/** Options of {@link syncChecks}. */
export interface SyncOptions {
  /** Largest lag searched, frames. @default min(15, floor(T / 4)) */
  maxLag?: number;
  /** Warp when the best lag cuts the height gap by at least this fraction. @default 0.15 */
  minGain?: number;
  /** Whether to warp at all. @default true */
  warp?: boolean;
}

/**
 * The seed's clip checks before a fit: paw agreement, the height gap between the views, the
 * best lag of the front view against the side view; when that lag cuts the height gap by 15%
 * or more, the front view is time-warped (shifted) onto the side view in place. Returns
 * motion.json's `sync` (with `swaps_fixed` zero; the fit fills it).
 *
 * ```ts
 * const sync = syncChecks(views, info.feet);
 * ```
 */
export function syncChecks(d: ViewData, feet: ArrayLike<number>, options: SyncOptions = {}): SyncReport {
  const paw = pawAgreement(d, feet);
  const gap0 = heightGap(d, 0) ?? 0;
  const maxLag = options.maxLag ?? Math.min(15, Math.floor(d.t / 4));
  let best = 0;
  let bestGap = gap0;
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    if (lag === 0) continue;
    const g = heightGap(d, lag);
    if (g !== null && g < bestGap - 1e-9) {
      bestGap = g;
      best = lag;
    }
  }
  const warp = (options.warp ?? true) && best !== 0 && bestGap <= (1 - (options.minGain ?? 0.15)) * gap0;
  if (warp) shiftFront(d, best);
  return {
    paw_agreement: warp ? pawAgreement(d, feet) : paw,
    height_gap_px: gap0,
    lag_frames: best,
    warped: warp,
    height_gap_after_px: warp ? (heightGap(d, 0) ?? 0) : gap0,
    swaps_fixed: { front: 0, side: 0 },
  };
}

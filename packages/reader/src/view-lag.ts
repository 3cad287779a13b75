import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';

/** Two-view keypoints of a clip, det.npz's layout: T x K x 2 layout px, T x K confidences. */
export interface ViewPeaks {
  frontUv: ArrayLike<number>;
  sideUv: ArrayLike<number>;
  frontConf: ArrayLike<number>;
  sideConf: ArrayLike<number>;
}

/** How far one view of a clip runs behind the other, as {@link estimateViewLag} found it. */
export interface ViewLag {
  /** Frames the side view runs behind the front view (negative: the front behind the side); 0 in step. */
  frames: number;
  /** The views' row disagreement (px, clipped rms of the smoothed tracks less each keypoint's offset) at each lag searched, from `-maxLag` on (lag 0 in the middle). */
  gapPx: number[];
  /** The frames compared. */
  window: [number, number];
}

/** Options of {@link estimateViewLag}. */
export interface ViewLagOptions {
  /** Largest lag searched, frames (at most an eighth of the frames compared: a short clip shows too little motion). @default 3 */
  maxLag?: number;
  /** The first frame compared (e.g. after a fade's unreadable frames). @default 0 */
  first?: number;
  /** Peaks under this confidence in either view are left out. @default 0.2 */
  minConf?: number;
  /** A row difference counts at most this much, px (a track on the wrong leg). @default 12 */
  clipPx?: number;
  /**
   * A lag is taken when the disagreement there is the least of all lags searched, with a lag on
   * each side, and the lags 2 frames either side of it disagree by at least this fraction more. @default 0.15
   */
  minContrast?: number;
}

/**
 * The lag between the two views of a clip from stage 1's peaks of frames `first` to `frames`:
 * the views share the vertical axis, so a keypoint's row is the same in both when they are in
 * step, and the lag that best lines up each keypoint's row track in one view with its track in
 * the other (a paw lifting, the body bobbing) is how far the later view runs behind. Each track is
 * a running median over 5 frames (a peak's own noise is as large as a frame's motion; the median
 * also drops a peak on the wrong leg), a keypoint's constant offset between the views is taken
 * out, and the squared row differences are clipped at `clipPx`. A lag is reported only where the
 * disagreement dips clearly (`minContrast`) inside the lags searched.
 *
 * ```ts
 * const lag = estimateViewLag(peaks, names.length, 60);
 * if (lag.frames > 0) console.log(`the side view runs ${lag.frames} frames behind`);
 * ```
 */
export function estimateViewLag(
  peaks: ViewPeaks,
  k: number,
  frames: number,
  o: ViewLagOptions = {},
): ViewLag {
  const first = o.first ?? 0;
  const maxLag = Math.max(0, Math.min(o.maxLag ?? 3, Math.floor((frames - first) / 8)));
  const minConf = o.minConf ?? 0.2;
  const clip2 = (o.clipPx ?? 12) ** 2;
  const n = Math.max(0, frames - first);
  const front = rowTracks(peaks.frontUv, peaks.frontConf, k, first, n, minConf);
  const side = rowTracks(peaks.sideUv, peaks.sideConf, k, first, n, minConf);
  const gapPx: number[] = [];
  const d = new Float64Array(n);
  for (let lag = -maxLag; lag <= maxLag; lag++) {
    let sum = 0;
    let count = 0;
    for (let j = 0; j < k; j++) {
      // front frame t against side frame t + lag: a side running `lag` behind shows t there
      let m = 0;
      for (let t = Math.max(0, -lag); t < n && t + lag < n; t++) {
        const x = front[t * k + j]! - side[(t + lag) * k + j]!;
        if (Number.isFinite(x)) d[m++] = x;
      }
      if (m < 3) continue;
      const bias = median(d.subarray(0, m));
      for (let i = 0; i < m; i++) sum += Math.min((d[i]! - bias) ** 2, clip2);
      count += m;
    }
    gapPx.push(count > 0 ? Math.sqrt(sum / count) : Number.POSITIVE_INFINITY);
  }
  let best = maxLag;
  for (let i = 0; i < gapPx.length; i++) if (gapPx[i]! < gapPx[best]!) best = i;
  // the curve must dip at the lag: a still creature's curve is flat and its minimum anywhere
  const around = [best - 2, best + 2].filter((i) => i >= 0 && i < gapPx.length).map((i) => gapPx[i]!);
  const contrast = around.reduce((a, b) => a + b, 0) / around.length / gapPx[best]! - 1;
  const inside = best > 0 && best < gapPx.length - 1;
  const lagged = best !== maxLag && inside && contrast >= (o.minContrast ?? 0.15);
  return { frames: lagged ? best - maxLag : 0, gapPx, window: [first, frames] };
}

/** Each keypoint's row over frames `first` to `first + n` (n x k), a running median of 5 frames of its confident peaks (NaN with fewer than 3). */
function rowTracks(
  uv: ArrayLike<number>,
  conf: ArrayLike<number>,
  k: number,
  first: number,
  n: number,
  minConf: number,
): Float64Array {
  const out = new Float64Array(n * k);
  const w = new Float64Array(5);
  for (let j = 0; j < k; j++) {
    for (let t = 0; t < n; t++) {
      let m = 0;
      for (let s = Math.max(0, t - 2); s <= Math.min(n - 1, t + 2); s++) {
        const i = (first + s) * k + j;
        const v = uv[2 * i + 1]!;
        if (conf[i]! >= minConf && Number.isFinite(v)) w[m++] = v;
      }
      out[t * k + j] = m >= 3 ? median(w.subarray(0, m)) : Number.NaN;
    }
  }
  return out;
}

/** The median of `a` (reordered in place). */
function median(a: Float64Array): number {
  a.sort();
  const h = a.length >> 1;
  return a.length % 2 ? a[h]! : (a[h - 1]! + a[h]!) / 2;
}

/**
 * Peaks with the view that runs `lag` frames behind ({@link ViewLag} `frames`) read that many
 * frames ahead, so both views show the same moment; its last frames, which the clip does not
 * show, get confidence 0 (and NaN rows). New arrays; `peaks` is left as it is.
 *
 * ```ts
 * const inStep = alignPeaks(peaks, k, frames, lag.frames);
 * ```
 */
export function alignPeaks(
  peaks: ViewPeaks,
  k: number,
  frames: number,
  lag: number,
): { frontUv: Float32Array; sideUv: Float32Array; frontConf: Float32Array; sideConf: Float32Array } {
  const out = {
    frontUv: Float32Array.from({ length: 2 * k * frames }, (_, i) => peaks.frontUv[i]!),
    sideUv: Float32Array.from({ length: 2 * k * frames }, (_, i) => peaks.sideUv[i]!),
    frontConf: Float32Array.from({ length: k * frames }, (_, i) => peaks.frontConf[i]!),
    sideConf: Float32Array.from({ length: k * frames }, (_, i) => peaks.sideConf[i]!),
  };
  if (lag === 0) return out;
  const [uv, conf, srcUv, srcConf] =
    lag > 0
      ? [out.sideUv, out.sideConf, peaks.sideUv, peaks.sideConf]
      : [out.frontUv, out.frontConf, peaks.frontUv, peaks.frontConf];
  const ahead = Math.abs(lag);
  for (let t = 0; t < frames; t++) {
    const s = t + ahead;
    for (let j = 0; j < k; j++) {
      const i = t * k + j;
      const from = s * k + j;
      const inClip = s < frames;
      conf[i] = inClip ? srcConf[from]! : 0;
      uv[2 * i] = inClip ? srcUv[2 * from]! : Number.NaN;
      uv[2 * i + 1] = inClip ? srcUv[2 * from + 1]! : Number.NaN;
    }
  }
  return out;
}

/**
 * Layout frames with the view that runs `lag` frames behind ({@link ViewLag} `frames`; the side
 * view is the layout's columns from `W_FRONT` on) taken from the frame that many ahead, so both
 * views show the same moment; on the clip's last frames, which the clip does not show in that view,
 * the view is the empty wall (the refinement then fits them to the other view alone).
 *
 * ```ts
 * for await (const f of alignViews(layoutFrames, lag.frames, layout)) refineOne(f);
 * ```
 */
export async function* alignViews(
  frames: AsyncIterable<RgbImage>,
  lag: number,
  layout: Layout,
): AsyncGenerator<RgbImage> {
  if (lag === 0) {
    yield* frames;
    return;
  }
  const ahead = Math.abs(lag);
  const [x0, x1] = lag > 0 ? [layout.W_FRONT, layout.WIDTH] : [0, layout.W_FRONT];
  const held: RgbImage[] = [];
  const compose = (now: RgbImage, later: RgbImage | null): RgbImage => {
    const data = now.data.slice();
    const w = now.width;
    const [r, g, b] = layout.colours.wall;
    for (let y = 0; y < now.height; y++) {
      if (later) data.set(later.data.subarray(3 * (y * w + x0), 3 * (y * w + x1)), 3 * (y * w + x0));
      else for (let x = x0; x < x1; x++) data.set([r, g, b], 3 * (y * w + x));
    }
    return { width: w, height: now.height, data };
  };
  for await (const f of frames) {
    held.push(f);
    if (held.length > ahead) yield compose(held.shift()!, f);
  }
  for (const f of held) yield compose(f, null);
}

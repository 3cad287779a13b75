import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { calibAt } from './calib-at.js';
import { toLayout } from './frame-peaks.js';
import { type ClipFade, FADE_MIN_VISIBILITY, unfadeFrames } from './unfade-frames.js';
import { alignViews, estimateViewLag, type ViewLag, type ViewPeaks } from './view-lag.js';

/** Frames of stage 1's peaks the view lag is measured on (the refinement waits for them). */
export const LAG_WINDOW = 48;

/** The frames stage 2 reads and what was found on the way: the clip's fade-in and view lag. */
export interface ClipFrames {
  /** Layout frames, a fade-in restored, both views in step. */
  frames: AsyncGenerator<RgbImage>;
  fade: ClipFade;
  lag: ViewLag;
}

/** The frames of a fade too faint to read at the clip's start. */
export function unseenFrames(fade: ClipFade): number {
  let n = 0;
  while (n < fade.visibility.length && !(fade.visibility[n]! >= FADE_MIN_VISIBILITY)) n++;
  return n;
}

/** Thrown by {@link clipFrames}' frames read in step when stage 1's peaks show a view lag after all. */
export class ViewLagFound extends Error {
  constructor(readonly lag: ViewLag) {
    super(`the views are ${Math.abs(lag.frames)} frame(s) apart`);
    this.name = 'ViewLagFound';
  }
}

/** Options of {@link clipFrames}. */
export interface ClipFramesOptions {
  /**
   * Read the frames at once as if the views were in step, instead of waiting for stage 1's first
   * {@link LAG_WINDOW} frames: the lag is measured at the first frame read once stage 1 has that
   * window's peaks (at the latest when the frames reach the window's end), and the frames throw
   * {@link ViewLagFound} there when the views are not in step (the caller reads the clip again
   * without this). `lag` holds the in-step assumption until then. @default false
   */
  inStep?: boolean;
  /** Called once the lag is measured (before clipFrames returns without `inStep`), with the fade found. */
  onLag?: (lag: ViewLag, fade: ClipFade) => void;
}

/** The lag assumed by {@link ClipFramesOptions.inStep} until it is measured. */
const IN_STEP: ViewLag = { frames: 0, gapPx: [], window: [0, 0] };

/**
 * Stage 2's frames of a decoded clip: a fade-in at the start restored ({@link unfadeFrames}), each
 * frame calibrated to the layout (`calibFrames`, T x 4), and the view that runs behind (measured
 * on stage 1's `peaks` of the first {@link LAG_WINDOW} frames: {@link estimateViewLag}) read
 * ahead ({@link alignViews}). `ready(t)` resolves once stage 1 has frame t's peaks (false: the clip
 * ended before it, which ends the frames too). With `inStep`, the frames start before the lag is
 * known (see {@link ClipFramesOptions}).
 *
 * ```ts
 * const { frames, lag } = await clipFrames(decodeVideo(clip), layout, track, peaks, k, total, async () => true);
 * ```
 */
export async function clipFrames(
  decoded: AsyncIterable<RgbImage>,
  layout: Layout,
  calibFrames: Float64Array,
  peaks: ViewPeaks,
  k: number,
  total: number,
  ready: (t: number) => Promise<boolean>,
  options: ClipFramesOptions = {},
): Promise<ClipFrames> {
  const fade: ClipFade = { visibility: [] };
  const src = unfadeFrames(decoded, layout, (t) => calibAt(calibFrames, t), fade);
  // the first frame out has measured the fade
  const first = await src.next();
  const window = Math.min(total, LAG_WINDOW);
  const measure = () => {
    const have = Math.min(window, Math.floor(peaks.frontConf.length / k));
    const lag = estimateViewLag(peaks, k, have, { first: unseenFrames(fade) });
    options.onLag?.(lag, fade);
    return lag;
  };
  if (!options.inStep) {
    if (window > 0) await ready(window - 1);
    const lag = measure();
    return { frames: alignViews(inLayout(), lag.frames, layout), fade, lag };
  }
  const out: ClipFrames = { frames: inLayout(true), fade, lag: IN_STEP };
  return out;

  async function* inLayout(check = false): AsyncGenerator<RgbImage> {
    let t = 0;
    let checked = !check;
    const confirm = () => {
      checked = true;
      const lag = measure();
      if (lag.frames !== 0) throw new ViewLagFound(lag);
      out.lag = lag;
    };
    try {
      for (let r = first; !r.done; r = await src.next()) {
        if (!(await ready(t))) break;
        // measured as soon as stage 1 has the window's peaks, so a restart wastes few frames
        if (!checked && (t >= window - 1 || peaks.frontConf.length >= window * k)) confirm();
        yield toLayout(r.value, calibAt(calibFrames, t), layout);
        t++;
      }
      // a clip shorter than the window: measured on what stage 1 read
      if (!checked) confirm();
    } finally {
      // the decoder stops with the frames, however they end (a lag found, the reader stopping early)
      await src.return(undefined);
    }
  }
}

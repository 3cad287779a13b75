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

/**
 * Stage 2's frames of a decoded clip: a fade-in at the start restored ({@link unfadeFrames}), each
 * frame calibrated to the layout (`calibFrames`, T x 4), and the view that runs behind (measured
 * on stage 1's `peaks` of the first {@link LAG_WINDOW} frames: {@link estimateViewLag}) read
 * ahead ({@link alignViews}). `ready(t)` resolves once stage 1 has frame t's peaks (false: the clip
 * ended before it, which ends the frames too).
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
): Promise<ClipFrames> {
  const fade: ClipFade = { visibility: [] };
  const src = unfadeFrames(decoded, layout, (t) => calibAt(calibFrames, t), fade);
  // the first frame out has measured the fade
  const first = await src.next();
  const window = Math.min(total, LAG_WINDOW);
  if (window > 0) await ready(window - 1);
  const have = Math.min(window, Math.floor(peaks.frontConf.length / k));
  const lag = estimateViewLag(peaks, k, have, { first: unseenFrames(fade) });
  async function* inLayout(): AsyncGenerator<RgbImage> {
    let t = 0;
    for (let r = first; !r.done; r = await src.next()) {
      if (!(await ready(t))) return;
      yield toLayout(r.value, calibAt(calibFrames, t), layout);
      t++;
    }
  }
  return { frames: alignViews(inLayout(), lag.frames, layout), fade, lag };
}

import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';

/** Outer columns each side of the divider read as the wall beside it. */
const SIDE = 3;
/** Columns searched each side of where the layout draws the divider. */
const SPAN = 7;
/** A row counts where the divider is darker than the wall beside it by this much (levels). */
const MIN_DEPTH = 20;

/**
 * How wide the divider between the views reads in a layout frame, in px: per row, its darkness
 * below the wall on either side summed over the columns and divided by the darkest column's, the
 * median over the rows. A sharp frame reads the layout's `DIVIDER_PX` (a render 1.99 for 2); a
 * blur or a resize widens it (ffmpeg's gblur of sigma 1.5 on the wolf's exam clip reads 3.2, the
 * codec preset's clips 2.4-2.7), so it measures how soft the frame's edges are. NaN when too
 * few rows show a divider (a frame without one, or one the creature hides).
 *
 * ```ts
 * const soft = dividerWidth(frame, layout) > layout.DIVIDER_PX + 0.3;
 * ```
 */
export function dividerWidth(frame: RgbImage, layout: Layout): number {
  const { width: W, height: H, data } = frame;
  const c0 = layout.W_FRONT - layout.DIVIDER_PX - SPAN;
  const c1 = layout.W_FRONT + SPAN;
  if (c0 < 0 || c1 > W) return Number.NaN;
  const n = c1 - c0;
  const luma = new Float64Array(n);
  const widths: number[] = [];
  for (let y = Math.round(0.1 * H); y < Math.round(0.9 * H); y += 3) {
    for (let k = 0; k < n; k++) {
      const i = 3 * (y * W + c0 + k);
      luma[k] = ((data[i] as number) + (data[i + 1] as number) + (data[i + 2] as number)) / 3;
    }
    let wall = 0;
    for (let k = 0; k < SIDE; k++) wall += (luma[k] as number) + (luma[n - 1 - k] as number);
    wall /= 2 * SIDE;
    let sum = 0;
    let deepest = 0;
    for (let k = SIDE; k < n - SIDE; k++) {
      const dark = Math.max(0, wall - (luma[k] as number));
      sum += dark;
      if (dark > deepest) deepest = dark;
    }
    if (deepest >= MIN_DEPTH) widths.push(sum / deepest);
  }
  if (widths.length < 10) return Number.NaN;
  widths.sort((a, b) => a - b);
  return widths[widths.length >> 1] as number;
}

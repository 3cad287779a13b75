import type { PixelRect } from './distance-transform.js';

/**
 * Rectangles clipped to a `width` x `height` frame in whole pixels (each grown outward to the
 * pixels it touches); the whole frame when `rects` is null.
 *
 * ```ts
 * for (const r of pixelRects(regions, 1280, 720)) for (let y = r.y0; y < r.y1; y++) {}
 * ```
 */
export function pixelRects(rects: readonly PixelRect[] | null, width: number, height: number): PixelRect[] {
  if (!rects) return [{ x0: 0, x1: width, y0: 0, y1: height }];
  return rects.map((r) => ({
    x0: Math.max(0, Math.floor(r.x0)),
    x1: Math.min(width, Math.ceil(r.x1)),
    y0: Math.max(0, Math.floor(r.y0)),
    y1: Math.min(height, Math.ceil(r.y1)),
  }));
}

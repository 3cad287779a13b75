import type { Layout } from '@mocap/layout';
import type { PixelRect } from './distance-transform.js';
import { pixelRects } from './pixel-rects.js';

/**
 * Per view, the bounding box of the labelled pixels grown by `margin` (null when a view is empty).
 * With `rects`, only the pixels inside them are looked at (where a segmentation limited to them
 * put every label).
 */
export function silhouetteBoxes(
  labels: Uint8Array,
  layout: Layout,
  margin: number,
  rects: readonly PixelRect[] | null = null,
): PixelRect[] | null {
  const box = [
    [Infinity, -Infinity, Infinity, -Infinity],
    [Infinity, -Infinity, Infinity, -Infinity],
  ];
  const w = layout.WIDTH;
  for (const { x0, x1, y0, y1 } of pixelRects(rects, w, layout.HEIGHT)) {
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        if (!labels[y * w + x]) continue;
        const b = box[x < layout.W_FRONT ? 0 : 1];
        if (x < b[0]) b[0] = x;
        if (x > b[1]) b[1] = x;
        if (y < b[2]) b[2] = y;
        if (y > b[3]) b[3] = y;
      }
    }
  }
  if (!box.every((b) => b[0] <= b[1])) return null;
  return box.map((b, v) => ({
    x0: Math.max(v === 0 ? 0 : layout.W_FRONT, b[0] - margin),
    x1: Math.min(v === 0 ? layout.W_FRONT : w, b[1] + 1 + margin),
    y0: Math.max(0, b[2] - margin),
    y1: Math.min(layout.HEIGHT, b[3] + 1 + margin),
  }));
}

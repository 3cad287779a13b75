import type { Rgb } from '@mocap/layout';
import type { RgbImage } from './image.js';

/**
 * Fills the disc of radius `r` centred at `(cx, cy)` in place: every pixel whose centre
 * `(x + 0.5, y + 0.5)` lies within `r` (pixel i spans [i, i + 1), as layout px do). Returns `img`.
 *
 * ```ts
 * fillCircle(img, 210.5, 300.2, 4, [255, 0, 0]);
 * ```
 */
export function fillCircle(img: RgbImage, cx: number, cy: number, r: number, c: Rgb): RgbImage {
  if (!(Number.isFinite(cx) && Number.isFinite(cy) && r > 0)) return img;
  const y0 = Math.max(0, Math.floor(cy - r));
  const y1 = Math.min(img.height - 1, Math.ceil(cy + r));
  const r2 = r * r;
  for (let y = y0; y <= y1; y++) {
    const dy = y + 0.5 - cy;
    const half = r2 - dy * dy;
    if (half < 0) continue;
    const h = Math.sqrt(half);
    // Pixels with |x + 0.5 - cx| <= h.
    const x0 = Math.max(0, Math.ceil(cx - h - 0.5));
    const x1 = Math.min(img.width - 1, Math.floor(cx + h - 0.5));
    for (let x = x0; x <= x1; x++) {
      const i = (y * img.width + x) * 3;
      img.data[i] = c[0];
      img.data[i + 1] = c[1];
      img.data[i + 2] = c[2];
    }
  }
  return img;
}

/**
 * Draws a line segment `width` px thick with round ends, in place: every pixel whose centre
 * lies within `width / 2` of the segment. Returns `img`.
 *
 * ```ts
 * drawLine(img, 100, 200, 140, 260, 2, [255, 255, 255]);
 * ```
 */
export function drawLine(
  img: RgbImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  width: number,
  c: Rgb,
): RgbImage {
  if (![x0, y0, x1, y1].every(Number.isFinite) || !(width > 0)) return img;
  const r = width / 2;
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  const ya = Math.max(0, Math.floor(Math.min(y0, y1) - r));
  const yb = Math.min(img.height - 1, Math.ceil(Math.max(y0, y1) + r));
  const xa = Math.max(0, Math.floor(Math.min(x0, x1) - r));
  const xb = Math.min(img.width - 1, Math.ceil(Math.max(x0, x1) + r));
  const r2 = r * r;
  for (let y = ya; y <= yb; y++) {
    const py = y + 0.5 - y0;
    for (let x = xa; x <= xb; x++) {
      const px = x + 0.5 - x0;
      const t = len2 > 0 ? Math.min(1, Math.max(0, (px * dx + py * dy) / len2)) : 0;
      const ex = px - t * dx;
      const ey = py - t * dy;
      if (ex * ex + ey * ey <= r2) {
        const i = (y * img.width + x) * 3;
        img.data[i] = c[0];
        img.data[i + 1] = c[1];
        img.data[i + 2] = c[2];
      }
    }
  }
  return img;
}

import { assertRgbImage, type RgbImage } from './image.js';

/**
 * Copies `src` into `dst` with its top-left pixel at `(x, y)`, in place; whatever falls outside
 * `dst` is clipped. Returns `dst`.
 *
 * ```ts
 * paste(frame, sideView, 420, 0);
 * ```
 */
export function paste(dst: RgbImage, src: RgbImage, x: number, y: number): RgbImage {
  assertRgbImage('paste', dst, 'destination');
  assertRgbImage('paste', src, 'source');
  if (!Number.isInteger(x) || !Number.isInteger(y)) {
    throw new TypeError(`paste: expected integer coordinates, got (${x}, ${y}).`);
  }
  const x0 = Math.max(0, x);
  const x1 = Math.min(dst.width, x + src.width);
  if (x1 <= x0) return dst;
  const y0 = Math.max(0, y);
  const y1 = Math.min(dst.height, y + src.height);
  for (let r = y0; r < y1; r++) {
    const s = ((r - y) * src.width + (x0 - x)) * 3;
    dst.data.set(src.data.subarray(s, s + (x1 - x0) * 3), (r * dst.width + x0) * 3);
  }
  return dst;
}

import type { RgbImage } from '@mocap/media';
import type { PixelRect } from './distance-transform.js';
import { pixelRects } from './pixel-rects.js';

/**
 * Into `out` (the same size as `image`): `image` averaged over a (2 `radius` + 1)-pixel square
 * around each pixel (edges clamped), inside `rects` only (default: the whole frame); the pixels
 * outside them are copied. A box of width w cuts independent pixel noise w times; the colour
 * model, which labels pixel by pixel, then sees the colours it was fitted on.
 *
 * ```ts
 * boxBlur(smoothed, frame, 2, [{ x0: 100, x1: 400, y0: 200, y1: 600 }]);
 * ```
 */
export function boxBlur(
  out: RgbImage,
  image: RgbImage,
  radius: number,
  rects: readonly PixelRect[] | null = null,
): RgbImage {
  const { width: W, height: H } = image;
  if (out.width !== W || out.height !== H) {
    throw new RangeError(`boxBlur: out is ${out.width} x ${out.height}; the image is ${W} x ${H}.`);
  }
  if (!Number.isInteger(radius) || radius < 0) {
    throw new RangeError(`boxBlur: radius ${radius} is not a whole number >= 0.`);
  }
  const src = image.data;
  const dst = out.data;
  dst.set(src);
  if (radius === 0) return out;
  const n = (2 * radius + 1) ** 2;
  for (const { x0, x1, y0, y1 } of pixelRects(rects, W, H)) {
    if (x1 <= x0 || y1 <= y0) continue;
    const rw = x1 - x0;
    // rows y0 - radius .. y1 + radius (clamped) summed horizontally, 3 channels
    const rows = y1 - y0 + 2 * radius;
    if (scratch.length < rows * rw * 3) scratch = new Int32Array(rows * rw * 3);
    for (let k = 0; k < rows; k++) {
      const y = clamp(y0 - radius + k, H);
      const o = y * W;
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let dx = -radius; dx <= radius; dx++) s += src[3 * (o + clamp(x0 + dx, W)) + c];
        for (let x = x0; x < x1; x++) {
          scratch[3 * (k * rw + x - x0) + c] = s;
          s += src[3 * (o + clamp(x + radius + 1, W)) + c] - src[3 * (o + clamp(x - radius, W)) + c];
        }
      }
    }
    for (let x = 0; x < rw; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = 0; k <= 2 * radius; k++) s += scratch[3 * (k * rw + x) + c];
        for (let y = y0; y < y1; y++) {
          const k = y - y0;
          dst[3 * (y * W + x0 + x) + c] = ((s + (n >> 1)) / n) | 0;
          if (k + 2 * radius + 1 < rows)
            s += scratch[3 * ((k + 2 * radius + 1) * rw + x) + c] - scratch[3 * (k * rw + x) + c];
        }
      }
    }
  }
  return out;
}

function clamp(v: number, n: number): number {
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/** Row sums reused from call to call. */
let scratch = new Int32Array(0);

import { assertRgbImage, type RgbImage } from './image.js';

/**
 * The `width` x `height` region of `img` whose top-left pixel is `(x, y)`, as a new image.
 * The region must lie inside the image.
 *
 * ```ts
 * const front = crop(frame, 0, 0, 420, 720);
 * ```
 */
export function crop(img: RgbImage, x: number, y: number, width: number, height: number): RgbImage {
  assertRgbImage('crop', img);
  const ok = [x, y, width, height].every(Number.isInteger) && width > 0 && height > 0;
  if (!ok || x < 0 || y < 0 || x + width > img.width || y + height > img.height) {
    throw new TypeError(
      `crop: expected a region inside the ${img.width} x ${img.height} image, got ${width} x ${height} at (${x}, ${y}).`,
    );
  }
  const out = new Uint8Array(width * height * 3);
  for (let r = 0; r < height; r++) {
    const s = ((y + r) * img.width + x) * 3;
    out.set(img.data.subarray(s, s + width * 3), r * width * 3);
  }
  return { width, height, data: out };
}

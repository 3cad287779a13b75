import type { Rgb } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';

// 3 x 5 bitmaps, one row a number (bits left to right), for 0-9 and '.'.
const GLYPHS: Record<string, number[]> = {
  '0': [7, 5, 5, 5, 7],
  '1': [2, 6, 2, 2, 7],
  '2': [7, 1, 7, 4, 7],
  '3': [7, 1, 7, 1, 7],
  '4': [5, 5, 7, 1, 1],
  '5': [7, 4, 7, 1, 7],
  '6': [7, 4, 7, 5, 7],
  '7': [7, 1, 1, 2, 2],
  '8': [7, 5, 7, 5, 7],
  '9': [7, 5, 7, 1, 7],
  '.': [0, 0, 0, 0, 2],
};

/**
 * Writes `text` (digits and '.') at (x, y), top-left, each glyph 3 x 5 cells of `scale` px, in
 * place: enough to print a joint's confidence beside it without a font. Returns `img`.
 *
 * ```ts
 * tinyDigits(img, 10, 10, '0.87', 2, [255, 255, 255]);
 * ```
 */
export function tinyDigits(
  img: RgbImage,
  x: number,
  y: number,
  text: string,
  scale: number,
  c: Rgb,
): RgbImage {
  let gx = Math.round(x);
  const gy = Math.round(y);
  for (const ch of text) {
    const rows = GLYPHS[ch];
    if (!rows) throw new TypeError(`tinyDigits: Expected digits or '.', got "${ch}".`);
    for (let r = 0; r < 5; r++) {
      for (let b = 0; b < 3; b++) {
        if (!(((rows[r] as number) >> (2 - b)) & 1)) continue;
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const px = gx + b * scale + dx;
            const py = gy + r * scale + dy;
            if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
            const i = (py * img.width + px) * 3;
            img.data[i] = c[0];
            img.data[i + 1] = c[1];
            img.data[i + 2] = c[2];
          }
        }
      }
    }
    gx += 4 * scale;
  }
  return img;
}

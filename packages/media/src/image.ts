import type { Rgb } from '@mocap/layout';

/**
 * An 8-bit RGB image: `data` holds `width * height * 3` bytes, row-major, top row first,
 * three bytes (R, G, B) per pixel. Pixel `(x, y)` starts at byte `(y * width + x) * 3`.
 *
 * ```ts
 * const img = createImage(4, 2, [128, 130, 134]);
 * img.data[(1 * img.width + 3) * 3]; // 128: red of pixel (3, 1)
 * ```
 */
export interface RgbImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An 8-bit RGBA image: like {@link RgbImage} with four bytes (R, G, B, A) per pixel. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

function checkSize(op: string, width: number, height: number): void {
  if (!Number.isInteger(width) || width <= 0 || !Number.isInteger(height) || height <= 0) {
    throw new TypeError(`${op}: expected a positive integer width and height, got ${width} x ${height}.`);
  }
}

/**
 * A new `width` x `height` RGB image filled with `fill` (black by default).
 *
 * ```ts
 * const wall = createImage(1280, 720, [128, 130, 134]);
 * ```
 */
export function createImage(width: number, height: number, fill: Rgb = [0, 0, 0]): RgbImage {
  checkSize('createImage', width, height);
  const data = new Uint8Array(width * height * 3);
  if (fill[0] !== 0 || fill[1] !== 0 || fill[2] !== 0) {
    data[0] = fill[0];
    data[1] = fill[1];
    data[2] = fill[2];
    // Doubling copy: log2(n) memcpy calls instead of a per-pixel loop.
    for (let filled = 3; filled < data.length; filled *= 2) {
      data.copyWithin(filled, 0, Math.min(filled, data.length - filled));
    }
  }
  return { width, height, data };
}

/** A deep copy of `img`. */
export function cloneImage(img: RgbImage): RgbImage {
  return { width: img.width, height: img.height, data: img.data.slice() };
}

/**
 * Throws a TypeError naming `op` unless `img` is a well-formed RGB image (positive integer size,
 * `data` a Uint8Array of exactly `width * height * 3` bytes).
 */
export function assertRgbImage(op: string, img: RgbImage, what = 'image'): void {
  checkSize(`${op}: ${what}`, img.width, img.height);
  if (!(img.data instanceof Uint8Array) || img.data.length !== img.width * img.height * 3) {
    throw new TypeError(
      `${op}: ${what}: expected ${img.width} x ${img.height} x 3 = ${img.width * img.height * 3} bytes of RGB, got ${img.data?.length}.`,
    );
  }
}

/** The RGB colour of pixel `(x, y)`. */
export function getPixel(img: RgbImage, x: number, y: number): Rgb {
  const i = (y * img.width + x) * 3;
  return [img.data[i] as number, img.data[i + 1] as number, img.data[i + 2] as number];
}

/** Sets pixel `(x, y)` to `c`; coordinates outside the image are ignored. */
export function setPixel(img: RgbImage, x: number, y: number, c: Rgb): void {
  if (x < 0 || y < 0 || x >= img.width || y >= img.height) return;
  const i = (y * img.width + x) * 3;
  img.data[i] = c[0];
  img.data[i + 1] = c[1];
  img.data[i + 2] = c[2];
}

/**
 * Fills the rectangle `[x, x + w) x [y, y + h)` of `img` with `c` in place (clipped to the
 * image) and returns `img`.
 */
export function fillRect(img: RgbImage, x: number, y: number, w: number, h: number, c: Rgb): RgbImage {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(img.width, Math.floor(x + w));
  const y1 = Math.min(img.height, Math.floor(y + h));
  if (x1 <= x0 || y1 <= y0) return img;
  const row = createImage(x1 - x0, 1, c).data;
  for (let yy = y0; yy < y1; yy++) img.data.set(row, (yy * img.width + x0) * 3);
  return img;
}

/**
 * RGBA to RGB: alpha-composites over `background` (default black); alpha 255 copies the colour.
 */
export function rgbaToRgb(img: RgbaImage, background: Rgb = [0, 0, 0]): RgbImage {
  const n = img.width * img.height;
  const out = new Uint8Array(n * 3);
  const src = img.data;
  for (let i = 0; i < n; i++) {
    const a = src[i * 4 + 3] as number;
    for (let c = 0; c < 3; c++) {
      const v = src[i * 4 + c] as number;
      out[i * 3 + c] = a === 255 ? v : Math.round((v * a + (background[c] as number) * (255 - a)) / 255);
    }
  }
  return { width: img.width, height: img.height, data: out };
}

/** RGB to RGBA with alpha `alpha` (default opaque). */
export function rgbToRgba(img: RgbImage, alpha = 255): RgbaImage {
  const n = img.width * img.height;
  const out = new Uint8Array(n * 4);
  const src = img.data;
  for (let i = 0; i < n; i++) {
    out[i * 4] = src[i * 3] as number;
    out[i * 4 + 1] = src[i * 3 + 1] as number;
    out[i * 4 + 2] = src[i * 3 + 2] as number;
    out[i * 4 + 3] = alpha;
  }
  return { width: img.width, height: img.height, data: out };
}

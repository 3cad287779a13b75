import type { Rgb } from '@mocap/layout';
import { assertRgbImage, createImage, type RgbImage } from './image.js';
import { paste } from './paste.js';

/** Where {@link padToSquare} puts an image: the square's side and the image's top-left offset. */
export interface SquarePad {
  /** Side of the square, `max(width, height)`. */
  size: number;
  /** Column of the image's left edge in the square. */
  x: number;
  /** Row of the image's top edge in the square. */
  y: number;
}

/**
 * The square {@link padToSquare} makes of a `width` x `height` image: centred, the odd pixel
 * of padding (if any) going to the right or bottom. A point `(u, v)` of the image is
 * `(u + x, v + y)` in the square.
 *
 * ```ts
 * squarePad(420, 720); // { size: 720, x: 150, y: 0 }
 * ```
 */
export function squarePad(width: number, height: number): SquarePad {
  const size = Math.max(width, height);
  return { size, x: Math.floor((size - width) / 2), y: Math.floor((size - height) / 2) };
}

/**
 * Pads `img` to a square with `fill`, centred as {@link squarePad} says.
 *
 * ```ts
 * const square = padToSquare(frontView, DEFAULT_LAYOUT.colours.wall); // 720 x 720
 * ```
 */
export function padToSquare(img: RgbImage, fill: Rgb): RgbImage {
  assertRgbImage('padToSquare', img);
  const { size, x, y } = squarePad(img.width, img.height);
  return paste(createImage(size, size, fill), img, x, y);
}

import { DEFAULT_LAYOUT, type Layout } from '@mocap/layout';
import { crop } from './crop.js';
import { assertRgbImage, createImage, fillRect, type RgbImage } from './image.js';
import { paste } from './paste.js';

/** A view's rectangle in the full frame, px. */
export interface ViewRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Where a view sits in the frame: front at the left `W_FRONT` columns, side at the right
 * `W_SIDE`, both the full `HEIGHT`.
 *
 * ```ts
 * viewRect('side', DEFAULT_LAYOUT); // { x: 420, y: 0, width: 860, height: 720 }
 * ```
 */
export function viewRect(view: 'front' | 'side', layout: Layout = DEFAULT_LAYOUT): ViewRect {
  return view === 'front'
    ? { x: 0, y: 0, width: layout.W_FRONT, height: layout.HEIGHT }
    : { x: layout.W_FRONT, y: 0, width: layout.W_SIDE, height: layout.HEIGHT };
}

/** The first row of the floor band: the rows whose pixel centre lies below `GROUND_V`. */
export function floorRow(layout: Layout = DEFAULT_LAYOUT): number {
  return Math.min(layout.HEIGHT, Math.max(0, Math.floor(layout.GROUND_V + 0.5)));
}

/** Draws the divider (the last `DIVIDER_PX` columns of the front view) onto `frame` in place. */
export function drawDivider(frame: RgbImage, layout: Layout = DEFAULT_LAYOUT): RgbImage {
  const w = layout.DIVIDER_PX;
  return fillRect(frame, layout.W_FRONT - w, 0, w, layout.HEIGHT, layout.colours.divider);
}

/**
 * The empty studio in the layout's frame: wall colour above the ground row, floor colour on
 * every row whose pixel centre is below `GROUND_V` (rows 640-719 in the default layout), and
 * the divider. Colours are exactly `layout.colours`.
 *
 * ```ts
 * const bg = studioBackdrop(DEFAULT_LAYOUT); // 1280 x 720
 * getPixel(bg, 10, 10); // [128, 130, 134]
 * ```
 */
export function studioBackdrop(layout: Layout = DEFAULT_LAYOUT): RgbImage {
  const img = createImage(layout.WIDTH, layout.HEIGHT, layout.colours.wall);
  const f = floorRow(layout);
  fillRect(img, 0, f, layout.WIDTH, layout.HEIGHT - f, layout.colours.floor);
  return drawDivider(img, layout);
}

function checkView(op: string, img: RgbImage, name: string, width: number, height: number): void {
  assertRgbImage(op, img, `${name} view`);
  if (img.width !== width || img.height !== height) {
    throw new TypeError(
      `${op}: ${name} view: expected ${width} x ${height} (the layout's view size), got ${img.width} x ${img.height}.`,
    );
  }
}

/**
 * Composes the reference frame: the front view (`W_FRONT` x `HEIGHT`) on the left, the side view
 * (`W_SIDE` x `HEIGHT`) on the right, the divider drawn over the front view's last columns.
 *
 * ```ts
 * const frame = composeFrame(frontRender, sideRender, layout); // 1280 x 720
 * await writePng('runs/wolf/ref/ref.png', frame);
 * ```
 */
export function composeFrame(front: RgbImage, side: RgbImage, layout: Layout = DEFAULT_LAYOUT): RgbImage {
  checkView('composeFrame', front, 'front', layout.W_FRONT, layout.HEIGHT);
  checkView('composeFrame', side, 'side', layout.W_SIDE, layout.HEIGHT);
  const frame = createImage(layout.WIDTH, layout.HEIGHT);
  paste(frame, front, 0, 0);
  paste(frame, side, layout.W_FRONT, 0);
  return drawDivider(frame, layout);
}

/**
 * Splits a frame of the layout's size into its two views (the front view keeps the divider
 * columns). The inverse of {@link composeFrame} away from the divider.
 *
 * ```ts
 * const { front, side } = splitFrame(frame, layout);
 * ```
 */
export function splitFrame(
  frame: RgbImage,
  layout: Layout = DEFAULT_LAYOUT,
): { front: RgbImage; side: RgbImage } {
  assertRgbImage('splitFrame', frame, 'frame');
  if (frame.width !== layout.WIDTH || frame.height !== layout.HEIGHT) {
    throw new TypeError(
      `splitFrame: frame: expected ${layout.WIDTH} x ${layout.HEIGHT} (the layout's frame), got ${frame.width} x ${frame.height}.`,
    );
  }
  return {
    front: crop(frame, 0, 0, layout.W_FRONT, layout.HEIGHT),
    side: crop(frame, layout.W_FRONT, 0, layout.W_SIDE, layout.HEIGHT),
  };
}

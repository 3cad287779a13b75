import type { Layout } from '@mocap/layout';
import { PNG } from 'pngjs';

/**
 * Composes the two-view frame: the front view (W_FRONT x HEIGHT) on the left, the side view
 * (W_SIDE x HEIGHT) on the right, the divider over the front view's last `DIVIDER_PX` columns.
 * Takes and returns PNG bytes.
 *
 * ```ts
 * const frame = composeFrame(await readFile('front.png'), await readFile('side.png'), layout);
 * ```
 */
export function composeFrame(front: Uint8Array, side: Uint8Array, layout: Layout): Buffer {
  const f = PNG.sync.read(Buffer.from(front));
  const s = PNG.sync.read(Buffer.from(side));
  const H = layout.HEIGHT;
  if (f.width !== layout.W_FRONT || f.height !== H) {
    throw new RangeError(
      `composeFrame: front view is ${f.width} x ${f.height}, expected ${layout.W_FRONT} x ${H}.`,
    );
  }
  if (s.width !== layout.W_SIDE || s.height !== H) {
    throw new RangeError(
      `composeFrame: side view is ${s.width} x ${s.height}, expected ${layout.W_SIDE} x ${H}.`,
    );
  }
  const out = new PNG({ width: layout.WIDTH, height: H, colorType: 2, inputHasAlpha: true });
  const W = layout.WIDTH;
  const [dr, dg, db] = layout.colours.divider;
  for (let y = 0; y < H; y++) {
    f.data.copy(out.data, y * W * 4, y * f.width * 4, (y + 1) * f.width * 4);
    s.data.copy(out.data, (y * W + layout.W_FRONT) * 4, y * s.width * 4, (y + 1) * s.width * 4);
    for (let x = Math.max(0, layout.W_FRONT - layout.DIVIDER_PX); x < layout.W_FRONT; x++) {
      const i = (y * W + x) * 4;
      out.data[i] = dr;
      out.data[i + 1] = dg;
      out.data[i + 2] = db;
      out.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(out, { colorType: 2 });
}

import type { Rgb } from '@mocap/layout';
import { assertRgbImage, createImage, type RgbImage } from './image.js';

/**
 * Resamples `img` through a scale and shift into a new `width` x `height` image: output
 * coordinates are `u = sx * x + tx`, `v = sy * y + ty` of input coordinates (pixel i spans
 * [i, i + 1), as layout px do), so `calib` from det.npz (`[sx, sy, tx, ty]`, clip px to layout
 * px) maps a clip frame into the layout's frame. Bilinear; output pixels whose centre maps
 * outside the input take `fill`.
 *
 * ```ts
 * const inLayout = warpScaleShift(clipFrame, [0.95, 0.95, 12, -8], 1280, 720, layout.colours.wall);
 * ```
 */
export function warpScaleShift(
  img: RgbImage,
  calib: ArrayLike<number>,
  width: number,
  height: number,
  fill: Rgb | 'edge' = [0, 0, 0],
): RgbImage {
  const edge = fill === 'edge';
  assertRgbImage('warpScaleShift', img);
  const [sx, sy, tx, ty] = [calib[0], calib[1], calib[2], calib[3]] as number[];
  if (calib.length !== 4 || !(sx! > 0 && sy! > 0 && Number.isFinite(tx) && Number.isFinite(ty))) {
    throw new TypeError(
      `warpScaleShift: calib: expected [sx, sy, tx, ty] with positive scales, got [${Array.from(calib).join(', ')}].`,
    );
  }
  const out = createImage(width, height, edge ? [0, 0, 0] : fill);
  const { width: w, height: h, data: src } = img;
  // Input column/row (centre-aligned, clamped) and weight for every output column/row; -1 = outside.
  const axis = (n: number, size: number, s: number, t: number) => {
    const i0 = new Int32Array(n);
    const f = new Float32Array(n);
    for (let o = 0; o < n; o++) {
      const c = (o + 0.5 - t) / s - 0.5;
      if (!edge && (c < -0.5 || c > size - 0.5)) {
        i0[o] = -1;
        continue;
      }
      const cc = Math.min(Math.max(c, 0), size - 1);
      i0[o] = Math.min(Math.floor(cc), Math.max(size - 2, 0));
      f[o] = size > 1 ? cc - (i0[o] as number) : 0;
    }
    return { i0, f };
  };
  const X = axis(width, w, sx!, tx!);
  const Y = axis(height, h, sy!, ty!);
  const dx = w > 1 ? 3 : 0;
  const dy = h > 1 ? w * 3 : 0;
  const d = out.data;
  const X0 = X.i0;
  const XF = X.f;
  for (let y = 0; y < height; y++) {
    const yi = Y.i0[y] as number;
    if (yi < 0) continue;
    const fy = Y.f[y] as number;
    const row = yi * w * 3;
    for (let x = 0, o = y * width * 3; x < width; x++, o += 3) {
      const xi = X0[x] as number;
      if (xi < 0) continue;
      const fx = XF[x] as number;
      const p = row + xi * 3;
      const q = p + dy;
      for (let k = 0; k < 3; k++) {
        const s00 = src[p + k] as number;
        const s10 = src[q + k] as number;
        const a = s00 + ((src[p + dx + k] as number) - s00) * fx;
        const b = s10 + ((src[q + dx + k] as number) - s10) * fx;
        // values are in [0, 255]: adding 0.5 and truncating rounds as Math.round does, without its call
        d[o + k] = (a + (b - a) * fy + 0.5) | 0;
      }
    }
  }
  return out;
}

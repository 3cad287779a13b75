import { Layout, worldToFront, worldToSide } from '@mocap/layout';
import { createImage, fillCircle, type RgbImage, studioBackdrop, warpScaleShift } from '@mocap/media';
import { BLOB_JOINTS, type ClipCalib } from '@mocap/reader/internal';

/** A quarter-size layout (320 x 180) so the calibration tests' clips stay small. */
export const small = Layout.parse({
  WIDTH: 320,
  HEIGHT: 180,
  W_FRONT: 106,
  W_SIDE: 214,
  GROUND_V: 160,
  M_PER_PX: 1.9 / 180,
});

/** The studio with the blob creature of frame `k` in both views (frame 0 is ref.png's pose). */
export function studioFrame(k: number, layout: Layout = small): RgbImage {
  const img = studioBackdrop(layout);
  BLOB_JOINTS.forEach((j, i) => {
    const p = [0.3 * Math.cos(i + 0.2 * k), 0.5 * Math.sin(i * 2 + 0.1 * k), 0.3 + 0.25 * i];
    const [fu, fv] = worldToFront(p, layout);
    const [su, sv] = worldToSide(p, layout);
    fillCircle(img, fu, fv, 9, [...j.colour]);
    fillCircle(img, su, sv, 9, [...j.colour]);
  });
  return img;
}

/**
 * What a camera framing the layout by `c` (layout u = sx clip u + tx, per axis) sees on a
 * `width` x `height` frame; outside the layout, `fill` (null: the studio goes on, its edge pixels
 * extended, as a video model would paint it).
 */
export function frameAs(
  layoutFrame: RgbImage,
  c: ClipCalib,
  width: number,
  height: number,
  fill: [number, number, number] | null,
): RgbImage {
  const inv = [1 / c.sx, 1 / c.sy, -c.tx / c.sx, -c.ty / c.sy];
  if (fill) return warpScaleShift(layoutFrame, inv, width, height, fill);
  // Clamp to the layout's edge pixels: the studio extends seamlessly.
  const out = createImage(width, height);
  const { width: w, height: h, data } = layoutFrame;
  for (let y = 0; y < height; y++) {
    const v = Math.min(h - 1, Math.max(0, Math.floor(c.sy * (y + 0.5) + c.ty)));
    for (let x = 0; x < width; x++) {
      const u = Math.min(w - 1, Math.max(0, Math.floor(c.sx * (x + 0.5) + c.tx)));
      out.data.set(data.subarray((v * w + u) * 3, (v * w + u) * 3 + 3), (y * width + x) * 3);
    }
  }
  return out;
}

/** Worst distance (layout px) between where two calibrations put a `w` x `h` frame's corners. */
export function cornerError(a: ClipCalib, b: ClipCalib, w: number, h: number): number {
  let worst = 0;
  for (const x of [0, w]) worst = Math.max(worst, Math.abs(a.sx * x + a.tx - (b.sx * x + b.tx)));
  for (const y of [0, h]) worst = Math.max(worst, Math.abs(a.sy * y + a.ty - (b.sy * y + b.ty)));
  return worst;
}

/** The frame darkened toward its corners: cos^4 of the angle off its centre, `angle` at a corner (a lens's vignette). */
export function vignetted(img: RgbImage, angle: number): RgbImage {
  const { width: w, height: h } = img;
  const rmax = Math.hypot(w / 2, h / 2);
  const data = new Uint8Array(img.data.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const f = Math.cos((angle * Math.hypot(x + 0.5 - w / 2, y + 0.5 - h / 2)) / rmax) ** 4;
      for (let c = 0; c < 3; c++) data[3 * (y * w + x) + c] = Math.round(img.data[3 * (y * w + x) + c]! * f);
    }
  return { width: w, height: h, data };
}

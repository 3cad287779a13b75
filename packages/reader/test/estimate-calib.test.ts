import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { createImage, drawLine, fillCircle, type RgbImage, studioBackdrop } from '@mocap/media';
import { estimateCalib } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

/** A reference frame: the studio with a few shapes in both views. */
function refFrame(): RgbImage {
  const img = studioBackdrop(DEFAULT_LAYOUT);
  const rng = seededRandom(11);
  for (let i = 0; i < 14; i++) {
    const c: [number, number, number] = [rng.int(200) + 20, rng.int(200) + 20, rng.int(200) + 20];
    fillCircle(img, rng.uniform(40, 1240), rng.uniform(80, 660), rng.uniform(15, 45), c);
  }
  drawLine(img, 600, 300, 1100, 420, 18, [90, 60, 40]);
  drawLine(img, 120, 200, 300, 600, 14, [70, 50, 30]);
  return img;
}

/** The clip frame a camera would see if layout u = sx * clip u + tx (bilinear, wall outside). */
function warp(
  ref: RgbImage,
  w: number,
  h: number,
  sx: number,
  sy: number,
  tx: number,
  ty: number,
  drift = 0,
) {
  const out = createImage(w, h, DEFAULT_LAYOUT.colours.wall);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const u = sx * (x + 0.5) + tx - 0.5;
      const v = sy * (y + 0.5) + ty - 0.5;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= ref.width || y0 + 1 >= ref.height) continue;
      const fx = u - x0;
      const fy = v - y0;
      for (let k = 0; k < 3; k++) {
        const at = (xx: number, yy: number) => ref.data[(yy * ref.width + xx) * 3 + k]!;
        const val =
          (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) +
          (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
        out.data[(y * w + x) * 3 + k] = Math.max(
          0,
          Math.min(255, Math.round(val * (1 + drift) - 10 * drift)),
        );
      }
    }
  return out;
}

function worstCornerError(
  c: { sx: number; sy: number; tx: number; ty: number },
  t: number[],
  w: number,
  h: number,
) {
  let worst = 0;
  for (const [x, y] of [
    [0, 0],
    [w, 0],
    [0, h],
    [w, h],
  ] as const) {
    worst = Math.max(
      worst,
      Math.abs(c.sx * x + c.tx - (t[0]! * x + t[2]!)),
      Math.abs(c.sy * y + c.ty - (t[1]! * y + t[3]!)),
    );
  }
  return worst;
}

describe('estimateCalib', () => {
  const ref = refFrame();

  it('is the identity for the reference itself', () => {
    const c = estimateCalib(ref, ref);
    expect(worstCornerError(c, [1, 1, 0, 0], 1280, 720)).toBeLessThan(0.05);
  });

  it('recovers a clip scaled by 0.95 and shifted by (12, -8) px to well under a pixel', () => {
    // clip u = 0.95 u + 12  =>  u = (clip u - 12) / 0.95.
    const t = [1 / 0.95, 1 / 0.95, -12 / 0.95, 8 / 0.95];
    const clip = warp(ref, 1280, 720, t[0]!, t[1]!, t[2]!, t[3]!);
    const c = estimateCalib(clip, ref);
    expect(worstCornerError(c, t, 1280, 720)).toBeLessThan(0.3);
  });

  it('handles another resolution and a colour drift', () => {
    // An 854 x 480 clip of the same scene, shifted, 6% brighter.
    const t = [1280 / 854, 720 / 480, 5, -3];
    const clip = warp(ref, 854, 480, t[0]!, t[1]!, t[2]!, t[3]!, 0.06);
    const c = estimateCalib(clip, ref);
    expect(worstCornerError(c, t, 854, 480)).toBeLessThan(0.5);
    expect(c.gain).toBeGreaterThan(1.02);
  });
});

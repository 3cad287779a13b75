import { createImage, getPixel, resize, warpScaleShift } from '@mocap/media';
import { describe, expect, it } from 'vitest';

function ramp(w: number, h: number) {
  const img = createImage(w, h);
  for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 37) % 256;
  return img;
}

/** Straight bilinear, pixel by pixel: what warpScaleShift computes, written the plain way. */
function reference(
  img: ReturnType<typeof createImage>,
  [sx, sy, tx, ty]: number[],
  width: number,
  height: number,
  fill: [number, number, number] | 'edge',
) {
  const edge = fill === 'edge';
  const out = createImage(width, height, edge ? [0, 0, 0] : fill);
  const { width: w, height: h, data: src } = img;
  const at = (o: number, size: number, s: number, t: number): [number, number] | null => {
    const c = (o + 0.5 - t) / s - 0.5;
    if (!edge && (c < -0.5 || c > size - 0.5)) return null;
    const cc = Math.min(Math.max(c, 0), size - 1);
    const i = Math.min(Math.floor(cc), Math.max(size - 2, 0));
    return [i, Math.fround(size > 1 ? cc - i : 0)];
  };
  for (let y = 0; y < height; y++) {
    const Y = at(y, h, sy as number, ty as number);
    if (!Y) continue;
    for (let x = 0; x < width; x++) {
      const X = at(x, w, sx as number, tx as number);
      if (!X) continue;
      const p = (Y[0] * w + X[0]) * 3;
      const dx = w > 1 ? 3 : 0;
      const dy = h > 1 ? w * 3 : 0;
      for (let k = 0; k < 3; k++) {
        const v = (q: number) => src[q] as number;
        const a = v(p + k) + (v(p + dx + k) - v(p + k)) * X[1];
        const b = v(p + dy + k) + (v(p + dy + dx + k) - v(p + dy + k)) * X[1];
        out.data[(y * width + x) * 3 + k] = Math.round(a + (b - a) * Y[1]);
      }
    }
  }
  return out;
}

/** A seeded image of noise (LCG): every pixel differs from its neighbours. */
function noise(w: number, h: number, seed: number) {
  const img = createImage(w, h);
  let s = seed;
  for (let i = 0; i < img.data.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    img.data[i] = s >>> 24;
  }
  return img;
}

describe('warpScaleShift', () => {
  it('gives straight bilinear byte for byte, for scales up and down, shifts, fill and edge', () => {
    const cases: [number, number, number[], number, number, [number, number, number] | 'edge'][] = [
      [832, 480, [1280 / 832, 720 / 480, 0, 0], 1280, 720, [1, 2, 3]],
      [64, 36, [0.95, 0.95, 12, -8], 64, 36, [9, 9, 9]],
      [64, 36, [1.0003, 0.9997, 0.4, -0.3], 64, 36, 'edge'],
      [50, 30, [0.6, 0.6, 3, 2], 50, 30, 'edge'],
      [7, 1, [1.3, 1, 0.5, 0], 9, 3, [0, 0, 0]],
      [1, 5, [1, 0.8, 0, 1], 2, 6, 'edge'],
    ];
    for (const [w, h, calib, W, H, fill] of cases) {
      const img = noise(w, h, w * 31 + h);
      const got = warpScaleShift(img, calib, W, H, fill);
      const want = reference(img, calib, W, H, fill);
      expect(Buffer.from(got.data).equals(Buffer.from(want.data)), `${w}x${h} ${calib.join(',')}`).toBe(true);
    }
  });

  it('is the identity for [1, 1, 0, 0]', () => {
    const img = ramp(13, 7);
    expect(Buffer.from(warpScaleShift(img, [1, 1, 0, 0], 13, 7).data).equals(Buffer.from(img.data))).toBe(
      true,
    );
  });

  it('shifts by whole pixels, filling what maps outside', () => {
    const img = ramp(10, 6);
    const out = warpScaleShift(img, [1, 1, 3, -2], 10, 6, [1, 2, 3]);
    expect(getPixel(out, 3, 0)).toEqual(getPixel(img, 0, 2));
    expect(getPixel(out, 9, 3)).toEqual(getPixel(img, 6, 5));
    expect(getPixel(out, 2, 0)).toEqual([1, 2, 3]);
    expect(getPixel(out, 5, 4)).toEqual([1, 2, 3]);
  });

  it('matches a bilinear resize for a pure scale', () => {
    const img = ramp(9, 5);
    const a = warpScaleShift(img, [2, 2, 0, 0], 18, 10);
    const b = resize(img, 18, 10, { method: 'bilinear' });
    const diff = a.data.reduce((m, v, i) => Math.max(m, Math.abs(v - b.data[i]!)), 0);
    expect(diff).toBeLessThanOrEqual(1);
  });

  it('maps a point as calib says: layout = s * clip + t', () => {
    // A single bright pixel at clip (20, 10) lands at layout 0.95 * 20.5 + 12 = 31.475 -> column 31.
    const clip = createImage(64, 32);
    clip.data.set([255, 255, 255], (10 * 64 + 20) * 3);
    const out = warpScaleShift(clip, [0.95, 0.95, 12, -8], 64, 32);
    let best = [0, 0, 0];
    for (let y = 0; y < 32; y++) {
      for (let x = 0; x < 64; x++) {
        const v = out.data[(y * 64 + x) * 3]!;
        if (v > best[2]!) best = [x, y, v];
      }
    }
    expect(best.slice(0, 2)).toEqual([31, 1]); // v: 0.95 * 10.5 - 8 = 1.975 -> row 1
  });

  it("extends the picture's edge pixels with fill 'edge'", () => {
    // A left half red, right half blue image shrunk to half size in the middle: the borders carry on.
    const img = createImage(8, 4, [200, 0, 0]);
    for (let y = 0; y < 4; y++) for (let x = 4; x < 8; x++) img.data.set([0, 0, 200], (y * 8 + x) * 3);
    const out = warpScaleShift(img, [0.5, 0.5, 2, 1], 8, 4, 'edge');
    expect(Array.from(out.data.subarray(0, 3))).toEqual([200, 0, 0]);
    expect(Array.from(out.data.subarray((3 * 8 + 7) * 3, (3 * 8 + 7) * 3 + 3))).toEqual([0, 0, 200]);
  });

  it('rejects a bad calib', () => {
    expect(() => warpScaleShift(createImage(2, 2), [0, 1, 0, 0], 2, 2)).toThrow(
      'warpScaleShift: calib: expected [sx, sy, tx, ty] with positive scales, got [0, 1, 0, 0].',
    );
  });
});

import { createImage, getPixel, resize, warpScaleShift } from '@mocap/media';
import { describe, expect, it } from 'vitest';

function ramp(w: number, h: number) {
  const img = createImage(w, h);
  for (let i = 0; i < img.data.length; i++) img.data[i] = (i * 37) % 256;
  return img;
}

describe('warpScaleShift', () => {
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

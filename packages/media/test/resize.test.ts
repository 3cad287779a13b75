import { createImage, fillRect, getPixel, resize } from '@mocap/media';
import { describe, expect, it } from 'vitest';

describe('resize', () => {
  it('area-averages exactly when shrinking by an integer factor', () => {
    const img = createImage(4, 2);
    // Left 2x2 block: two white, two black pixels -> mid grey; right block all red.
    img.data.set([255, 255, 255], 0);
    img.data.set([255, 255, 255], (1 * 4 + 1) * 3);
    fillRect(img, 2, 0, 2, 2, [200, 10, 0]);
    const out = resize(img, 2, 1);
    expect(getPixel(out, 0, 0)).toEqual([128, 128, 128]);
    expect(getPixel(out, 1, 0)).toEqual([200, 10, 0]);
  });

  it('area-averages fractional factors by covered area', () => {
    const img = createImage(3, 1);
    img.data.set([0, 0, 0, 90, 90, 90, 180, 180, 180]);
    // 3 -> 2: each output pixel covers 1.5 source pixels.
    const out = resize(img, 2, 1, { method: 'area' });
    expect(getPixel(out, 0, 0)).toEqual([30, 30, 30]); // (0 * 1 + 90 * 0.5) / 1.5
    expect(getPixel(out, 1, 0)).toEqual([150, 150, 150]); // (90 * 0.5 + 180) / 1.5
  });

  it('interpolates bilinearly with pixel centres aligned', () => {
    const img = createImage(2, 1);
    img.data.set([0, 0, 0, 200, 100, 40]);
    const out = resize(img, 4, 1);
    // Output centres map to source x = -0.25, 0.25, 0.75, 1.25 (clamped to 0..1).
    expect(out.data.subarray(0, 12)).toEqual(Uint8Array.of(0, 0, 0, 50, 25, 10, 150, 75, 30, 200, 100, 40));
  });

  it('keeps a flat colour flat, and copies on the same size', () => {
    const img = createImage(37, 23, [128, 130, 134]);
    for (const [w, h] of [
      [16, 9],
      [100, 51],
      [37, 23],
    ] as const) {
      const out = resize(img, w, h);
      expect(out.data.every((v, i) => v === [128, 130, 134][i % 3])).toBe(true);
    }
    expect(resize(img, 37, 23).data).not.toBe(img.data);
  });

  it('rejects a bad target size', () => {
    expect(() => resize(createImage(2, 2), 0, 3)).toThrow(
      'resize: expected a positive integer target size, got 0 x 3.',
    );
  });
});

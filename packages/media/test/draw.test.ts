import { createImage, drawLine, fillCircle, getPixel } from '@mocap/media';
import { describe, expect, it } from 'vitest';

function count(img: { data: Uint8Array }, r: number): number {
  let n = 0;
  for (let i = 0; i < img.data.length; i += 3) if (img.data[i] === r) n++;
  return n;
}

describe('fillCircle', () => {
  it('fills the pixels whose centres lie in the disc', () => {
    const img = fillCircle(createImage(20, 20), 10, 10, 3, [255, 0, 0]);
    // Centres at half-integers: those within 3 of (10, 10) number 32.
    expect(count(img, 255)).toBe(32);
    expect(getPixel(img, 9, 9)).toEqual([255, 0, 0]);
    expect(getPixel(img, 12, 9)).toEqual([255, 0, 0]);
    expect(getPixel(img, 13, 9)).toEqual([0, 0, 0]);
    // Clipped at the edge, NaN skipped.
    fillCircle(img, 0, 0, 2, [7, 0, 0]);
    expect(getPixel(img, 0, 0)).toEqual([7, 0, 0]);
    expect(() => fillCircle(img, Number.NaN, 3, 2, [1, 1, 1])).not.toThrow();
  });
});

describe('drawLine', () => {
  it('covers the segment with the given width and round ends', () => {
    const img = drawLine(createImage(20, 10), 2, 5, 17, 5, 2, [255, 255, 255]);
    // Rows 4 and 5 (centres 4.5, 5.5 are within 1 of y = 5), columns 2..16, plus columns 1 and 17 (caps).
    expect(getPixel(img, 10, 4)).toEqual([255, 255, 255]);
    expect(getPixel(img, 10, 5)).toEqual([255, 255, 255]);
    expect(getPixel(img, 10, 3)).toEqual([0, 0, 0]);
    expect(getPixel(img, 10, 6)).toEqual([0, 0, 0]);
    // Round caps reach the pixels just past each end (centre 0.71 px away), no further.
    expect(getPixel(img, 17, 5)).toEqual([255, 255, 255]);
    expect(getPixel(img, 18, 5)).toEqual([0, 0, 0]);
    expect(getPixel(img, 0, 5)).toEqual([0, 0, 0]);
    expect(count(img, 255)).toBe(2 * 15 + 2 * 2);
  });
});

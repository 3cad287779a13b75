import { createImage, fillRect, getPixel } from '@mocap/media';
import { assertRgbImage, cloneImage, rgbaToRgb, rgbToRgba, setPixel } from '@mocap/media/internal';
import { describe, expect, it } from 'vitest';

describe('createImage', () => {
  it('fills every pixel with the colour, for odd sizes too', () => {
    for (const [w, h] of [
      [1, 1],
      [7, 3],
      [33, 17],
    ] as const) {
      const img = createImage(w, h, [128, 130, 134]);
      expect(img.data.length).toBe(w * h * 3);
      expect(img.data.every((v, i) => v === [128, 130, 134][i % 3])).toBe(true);
    }
    expect(createImage(2, 2).data.every((v) => v === 0)).toBe(true);
  });

  it('rejects a bad size', () => {
    expect(() => createImage(0, 3)).toThrow(
      'createImage: expected a positive integer width and height, got 0 x 3.',
    );
    expect(() => createImage(2.5, 3)).toThrow(/got 2.5 x 3/);
  });
});

describe('pixels and rectangles', () => {
  it('reads, writes and fills, clipping at the edges', () => {
    const img = createImage(4, 3);
    setPixel(img, 3, 2, [1, 2, 3]);
    setPixel(img, 4, 0, [9, 9, 9]);
    expect(getPixel(img, 3, 2)).toEqual([1, 2, 3]);
    fillRect(img, -1, -1, 3, 2, [5, 5, 5]);
    expect(getPixel(img, 0, 0)).toEqual([5, 5, 5]);
    expect(getPixel(img, 1, 0)).toEqual([5, 5, 5]);
    expect(getPixel(img, 2, 0)).toEqual([0, 0, 0]);
    expect(getPixel(img, 0, 1)).toEqual([0, 0, 0]);
    const copy = cloneImage(img);
    copy.data[0] = 0;
    expect(img.data[0]).toBe(5);
  });

  it('checks that data matches the size', () => {
    expect(() => assertRgbImage('op', { width: 2, height: 1, data: new Uint8Array(5) }, 'frame 3')).toThrow(
      'op: frame 3: expected 2 x 1 x 3 = 6 bytes of RGB, got 5.',
    );
  });
});

describe('RGBA', () => {
  it('composites alpha over a background and adds alpha back', () => {
    const rgba = {
      width: 3,
      height: 1,
      data: Uint8Array.of(200, 0, 0, 255, 200, 0, 0, 0, 100, 100, 100, 51),
    };
    expect([...rgbaToRgb(rgba, [0, 0, 250]).data]).toEqual([200, 0, 0, 0, 0, 250, 20, 20, 220]);
    expect([...rgbToRgba(createImage(1, 1, [1, 2, 3]), 7).data]).toEqual([1, 2, 3, 7]);
  });
});

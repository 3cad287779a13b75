import { createImage, crop, getPixel, padToSquare, paste, squarePad } from '@mocap/media';
import { describe, expect, it } from 'vitest';

describe('padToSquare', () => {
  it('centres a tall view on a square of the fill colour', () => {
    expect(squarePad(420, 720)).toEqual({ size: 720, x: 150, y: 0 });
    expect(squarePad(860, 720)).toEqual({ size: 860, x: 0, y: 70 });
    const img = createImage(3, 6, [255, 0, 0]);
    const sq = padToSquare(img, [128, 130, 134]);
    expect([sq.width, sq.height]).toEqual([6, 6]);
    expect(getPixel(sq, 0, 0)).toEqual([128, 130, 134]);
    expect(getPixel(sq, 1, 3)).toEqual([255, 0, 0]);
    expect(getPixel(sq, 3, 5)).toEqual([255, 0, 0]);
    expect(getPixel(sq, 4, 0)).toEqual([128, 130, 134]);
  });
});

describe('crop and paste', () => {
  it('crop takes a region and paste puts it back, clipping at the edges', () => {
    const img = createImage(5, 4);
    for (let i = 0; i < img.data.length; i++) img.data[i] = i % 251;
    const part = crop(img, 1, 2, 3, 2);
    expect(getPixel(part, 0, 0)).toEqual(getPixel(img, 1, 2));
    expect(getPixel(part, 2, 1)).toEqual(getPixel(img, 3, 3));
    const dst = createImage(5, 4);
    paste(dst, part, 1, 2);
    expect(getPixel(dst, 3, 3)).toEqual(getPixel(img, 3, 3));
    expect(getPixel(dst, 0, 0)).toEqual([0, 0, 0]);
    const edge = paste(createImage(2, 2), createImage(3, 3, [9, 9, 9]), -2, 1);
    expect([...edge.data]).toEqual([0, 0, 0, 0, 0, 0, 9, 9, 9, 0, 0, 0]);
  });

  it('crop rejects a region outside the image', () => {
    expect(() => crop(createImage(4, 4), 2, 0, 3, 1)).toThrow(
      'crop: expected a region inside the 4 x 4 image, got 3 x 1 at (2, 0).',
    );
  });
});

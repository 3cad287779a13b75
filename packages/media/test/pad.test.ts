import { createImage, getPixel, padToSquare } from '@mocap/media';
import { squarePad } from '@mocap/media/internal';
import { describe, expect, it } from 'vitest';

describe('padToSquare', () => {
  it('centres a tall view on a square of the fill colour', () => {
    expect(squarePad(420, 720)).toEqual({ size: 720, x: 150, y: 0 });
    expect(squarePad(860, 720)).toEqual({ size: 860, x: 0, y: 70 });
    expect(squarePad(5, 2)).toEqual({ size: 5, x: 0, y: 1 });
    const img = createImage(3, 6, [255, 0, 0]);
    const sq = padToSquare(img, [128, 130, 134]);
    expect([sq.width, sq.height]).toEqual([6, 6]);
    expect(getPixel(sq, 0, 0)).toEqual([128, 130, 134]);
    expect(getPixel(sq, 1, 3)).toEqual([255, 0, 0]);
    expect(getPixel(sq, 3, 5)).toEqual([255, 0, 0]);
    expect(getPixel(sq, 4, 0)).toEqual([128, 130, 134]);
  });

  it('copies a square image unchanged', () => {
    const img = createImage(4, 4, [1, 2, 3]);
    const sq = padToSquare(img, [9, 9, 9]);
    expect(sq.data).not.toBe(img.data);
    expect([...sq.data]).toEqual([...img.data]);
  });
});

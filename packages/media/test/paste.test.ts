import { createImage, getPixel } from '@mocap/media';
import { paste } from '@mocap/media/internal';
import { describe, expect, it } from 'vitest';

describe('paste', () => {
  it('copies the source in place at (x, y)', () => {
    const dst = createImage(5, 4);
    const src = createImage(2, 2, [7, 8, 9]);
    expect(paste(dst, src, 3, 2)).toBe(dst);
    expect(getPixel(dst, 3, 2)).toEqual([7, 8, 9]);
    expect(getPixel(dst, 4, 3)).toEqual([7, 8, 9]);
    expect(getPixel(dst, 2, 2)).toEqual([0, 0, 0]);
  });

  it('clips at every edge', () => {
    const edge = paste(createImage(2, 2), createImage(3, 3, [9, 9, 9]), -2, 1);
    expect([...edge.data]).toEqual([0, 0, 0, 0, 0, 0, 9, 9, 9, 0, 0, 0]);
    const off = paste(createImage(2, 2), createImage(3, 3, [9, 9, 9]), 5, 5);
    expect(off.data.every((v) => v === 0)).toBe(true);
  });

  it('rejects fractional coordinates', () => {
    expect(() => paste(createImage(2, 2), createImage(1, 1), 0.5, 0)).toThrow(
      'paste: expected integer coordinates, got (0.5, 0).',
    );
  });
});

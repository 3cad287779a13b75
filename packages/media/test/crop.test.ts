import { createImage, crop, getPixel } from '@mocap/media';
import { describe, expect, it } from 'vitest';

describe('crop', () => {
  it('takes a region as a new image', () => {
    const img = createImage(5, 4);
    for (let i = 0; i < img.data.length; i++) img.data[i] = i % 251;
    const part = crop(img, 1, 2, 3, 2);
    expect([part.width, part.height]).toEqual([3, 2]);
    expect(getPixel(part, 0, 0)).toEqual(getPixel(img, 1, 2));
    expect(getPixel(part, 2, 1)).toEqual(getPixel(img, 3, 3));
    part.data[0] = 99;
    expect(getPixel(img, 1, 2)[0]).not.toBe(99);
  });

  it('rejects a region outside the image', () => {
    expect(() => crop(createImage(4, 4), 2, 0, 3, 1)).toThrow(
      'crop: expected a region inside the 4 x 4 image, got 3 x 1 at (2, 0).',
    );
    expect(() => crop(createImage(4, 4), 0, 0, 1.5, 1)).toThrow(/expected a region inside/);
  });
});

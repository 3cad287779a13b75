import { createImage, drawKeypoints, getPixel } from '@mocap/media';
import { drawMask, drawSkeleton, jointPalette } from '@mocap/media/internal';
import { describe, expect, it } from 'vitest';

describe('jointPalette', () => {
  it('gives n distinct colours, the same each time', () => {
    const p = jointPalette(24);
    expect(new Set(p.map((c) => c.join())).size).toBe(24);
    expect(jointPalette(24)).toEqual(p);
  });
});

describe('drawKeypoints', () => {
  it('draws each joint in its colour, skipping low confidence and NaN, through a transform', () => {
    const img = createImage(40, 40);
    const pts = Float32Array.of(10, 10, 30, 30, Number.NaN, 5, 20, 5);
    drawKeypoints(img, pts, {
      radius: 2,
      colours: [
        [255, 0, 0],
        [0, 255, 0],
        [0, 0, 255],
        [9, 9, 9],
      ],
      conf: [1, 0.05, 1, 0.5],
    });
    expect(getPixel(img, 10, 10)).toEqual([255, 0, 0]);
    expect(getPixel(img, 30, 30)).toEqual([0, 0, 0]);
    expect(getPixel(img, 20, 5)).toEqual([9, 9, 9]);
    const half = drawKeypoints(createImage(40, 40), [20, 20], {
      radius: 1,
      transform: [0.5, 0.5, 4, 0],
      colours: [[1, 2, 3]],
    });
    expect(getPixel(half, 13, 9)).toEqual([1, 2, 3]);
  });

  it('names a count mismatch', () => {
    expect(() => drawKeypoints(createImage(4, 4), [1, 2, 3])).toThrow(
      'drawKeypoints: expected (u, v) pairs, got 3 numbers.',
    );
    expect(() => drawKeypoints(createImage(4, 4), [1, 2], { conf: [1, 1] })).toThrow(
      /one confidence per joint \(1\), got 2/,
    );
  });
});

describe('drawSkeleton', () => {
  it('draws bones between joints and skips a bone with a low-confidence end', () => {
    const img = createImage(40, 40);
    const pts = [5, 5, 35, 5, 35, 35];
    drawSkeleton(
      img,
      pts,
      [
        [0, 1],
        [1, 2],
      ],
      { colour: [200, 100, 0], conf: [1, 1, 0], width: 2 },
    );
    expect(getPixel(img, 20, 4)).toEqual([200, 100, 0]);
    expect(getPixel(img, 34, 20)).toEqual([0, 0, 0]);
    expect(() => drawSkeleton(img, pts, [[0, 3]])).toThrow(
      'drawSkeleton: bones[0]: expected two joint indices below 3, got [0, 3].',
    );
  });
});

describe('drawMask', () => {
  it('alpha-blends label colours and leaves label 0 alone', () => {
    const img = createImage(2, 2, [100, 100, 100]);
    drawMask(
      img,
      Uint8Array.of(0, 1, 2, 1),
      [
        [0, 0, 0],
        [200, 0, 0],
        [0, 0, 255],
      ],
      { alpha: 0.5 },
    );
    expect(getPixel(img, 0, 0)).toEqual([100, 100, 100]);
    expect(getPixel(img, 1, 0)).toEqual([150, 50, 50]);
    expect(getPixel(img, 0, 1)).toEqual([50, 50, 178]);
    drawMask(
      img,
      Uint8Array.of(1, 1, 1, 1),
      [
        [0, 0, 0],
        [7, 8, 9],
      ],
      { alpha: 1 },
    );
    expect(getPixel(img, 0, 0)).toEqual([7, 8, 9]);
    expect(() => drawMask(img, Uint8Array.of(3, 0, 0, 0), [[0, 0, 0]])).toThrow(
      /label 3 has no palette colour/,
    );
    expect(() => drawMask(img, [0], [[0, 0, 0]])).toThrow(/one per pixel \(2 x 2\), got 1/);
  });
});

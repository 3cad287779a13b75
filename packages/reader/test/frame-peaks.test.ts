import { DEFAULT_LAYOUT } from '@mocap/layout';
import { createImage } from '@mocap/media';
import { toLayout } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const L = DEFAULT_LAYOUT;

describe('toLayout', () => {
  const frame = createImage(L.WIDTH, L.HEIGHT, [120, 110, 100]);
  // a dark square, so a move shows
  for (let y = 300; y < 340; y++)
    for (let x = 600; x < 640; x++) frame.data.fill(20, 3 * (y * L.WIDTH + x), 3 * (y * L.WIDTH + x) + 3);

  it('returns a layout-sized frame itself when the calibration moves no pixel by more than 0.01 px', () => {
    expect(toLayout(frame, { sx: 1, sy: 1, tx: 0, ty: 0 }, L)).toBe(frame);
    expect(toLayout(frame, { sx: 1, sy: 1, tx: -0.0027, ty: 0.004 }, L)).toBe(frame);
    // 1 + 5e-6 scales the far edge by 0.0064 px
    expect(toLayout(frame, { sx: 1 + 5e-6, sy: 1, tx: 0, ty: 0 }, L)).toBe(frame);
  });

  it('resamples through a calibration that moves pixels further, or a frame of another size', () => {
    const shifted = toLayout(frame, { sx: 1, sy: 1, tx: 0.5, ty: 0 }, L);
    expect(shifted).not.toBe(frame);
    // the square's left edge is half covered after a half-pixel shift
    expect(shifted.data[3 * (320 * L.WIDTH + 600)]).toBe(70);
    // 1 + 2e-5 moves the far edge by 0.026 px
    expect(toLayout(frame, { sx: 1 + 2e-5, sy: 1, tx: 0, ty: 0 }, L)).not.toBe(frame);
    const small = createImage(640, 360, [120, 110, 100]);
    const up = toLayout(small, { sx: 2, sy: 2, tx: 0, ty: 0 }, L);
    expect([up.width, up.height]).toEqual([L.WIDTH, L.HEIGHT]);
  });
});

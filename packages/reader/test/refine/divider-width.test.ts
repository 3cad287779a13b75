import { DEFAULT_LAYOUT } from '@mocap/layout';
import { dividerWidth } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { blurRows } from './blur-rows.js';

const L = DEFAULT_LAYOUT;

/** A studio frame: the wall, with the divider where the layout draws it when `divider`. */
function studio(divider: boolean): { width: number; height: number; data: Uint8Array } {
  const data = new Uint8Array(L.WIDTH * L.HEIGHT * 3);
  for (let y = 0; y < L.HEIGHT; y++)
    for (let x = 0; x < L.WIDTH; x++) {
      const onDivider = divider && x >= L.W_FRONT - L.DIVIDER_PX && x < L.W_FRONT;
      data.set(onDivider ? L.colours.divider : L.colours.wall, 3 * (y * L.WIDTH + x));
    }
  return { width: L.WIDTH, height: L.HEIGHT, data };
}

describe('dividerWidth', () => {
  it("reads the layout's divider width on a sharp frame and more on a blurred one", () => {
    const sharp = studio(true);
    expect(dividerWidth(sharp, L)).toBeCloseTo(L.DIVIDER_PX, 5);
    const widths = [0.7, 1.5, 2.5].map((s) => dividerWidth(blurRows(sharp, s), L));
    expect(widths[0]).toBeGreaterThan(L.DIVIDER_PX + 0.2);
    expect(widths[1]).toBeGreaterThan(3.5);
    expect(widths[1]).toBeLessThan(4.6);
    expect(widths[2]).toBeGreaterThan(widths[1] as number);
  });

  it('is NaN on a frame without a divider', () => {
    expect(dividerWidth(studio(false), L)).toBeNaN();
  });
});

import { pixelRects } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

describe('pixelRects', () => {
  it('is the whole frame without rectangles', () => {
    expect(pixelRects(null, 40, 30)).toEqual([{ x0: 0, x1: 40, y0: 0, y1: 30 }]);
  });

  it('grows each rectangle to the whole pixels it touches and clips it to the frame', () => {
    expect(
      pixelRects(
        [
          { x0: 2.5, x1: 7.2, y0: -3, y1: 4.0 },
          { x0: 35, x1: 60, y0: 10.9, y1: 31 },
        ],
        40,
        30,
      ),
    ).toEqual([
      { x0: 2, x1: 8, y0: 0, y1: 4 },
      { x0: 35, x1: 40, y0: 10, y1: 30 },
    ]);
  });
});

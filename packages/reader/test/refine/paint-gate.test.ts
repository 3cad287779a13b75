import { Layout } from '@mocap/layout';
import { gatePaint, LABEL_BODY, LABEL_GROUP0 } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const layout = Layout.parse({});
const W = layout.WIDTH;

/** Labels with a 20 x 20 patch of `label` at (x, y) in each view. */
function patches(label: number, fx: number, sx: number, y: number): Uint8Array {
  const l = new Uint8Array(W * layout.HEIGHT);
  for (const x0 of [fx, sx]) for (let r = y; r < y + 20; r++) l.fill(label, r * W + x0, r * W + x0 + 20);
  return l;
}

describe('gatePaint', () => {
  // one group: its box in the front view covers the front patch, in the side view it is elsewhere
  const boxes = Float64Array.from([100, 140, 200, 240, 900, 950, 500, 560]);

  it('turns paint outside its group box into body and leaves paint inside it', () => {
    const l = patches(LABEL_GROUP0, 110, 700, 210);
    gatePaint(l, layout, boxes);
    expect(l[215 * W + 115]).toBe(LABEL_GROUP0);
    expect(l[215 * W + 705]).toBe(LABEL_BODY);
  });

  it('looks only inside the rectangles it is given, with the same result where the labels lie in them', () => {
    const full = patches(LABEL_GROUP0, 110, 700, 210);
    const inRects = full.slice();
    gatePaint(full, layout, boxes);
    gatePaint(inRects, layout, boxes, [
      { x0: 100, x1: 140, y0: 200, y1: 240 },
      { x0: 690, x1: 730, y0: 200, y1: 240 },
    ]);
    expect(inRects).toEqual(full);
    // paint outside every rectangle is not looked at
    const outside = patches(LABEL_GROUP0, 110, 700, 210);
    gatePaint(outside, layout, boxes, [{ x0: 0, x1: 50, y0: 0, y1: 50 }]);
    expect(outside[215 * W + 705]).toBe(LABEL_GROUP0);
  });
});

import { Layout } from '@mocap/layout';
import { silhouetteBoxes } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const layout = Layout.parse({});
const W = layout.WIDTH;

function labelled(...px: [number, number][]): Uint8Array {
  const l = new Uint8Array(W * layout.HEIGHT);
  for (const [x, y] of px) l[y * W + x] = 1;
  return l;
}

describe('silhouetteBoxes', () => {
  it('boxes each view grown by the margin, clipped to the view', () => {
    const l = labelled([100, 200], [150, 260], [layout.W_FRONT + 2, 300], [900, 310]);
    expect(silhouetteBoxes(l, layout, 5)).toEqual([
      { x0: 95, x1: 156, y0: 195, y1: 266 },
      { x0: layout.W_FRONT, x1: 906, y0: 295, y1: 316 },
    ]);
  });

  it('is null when a view shows nothing', () => {
    expect(silhouetteBoxes(labelled([100, 200]), layout, 5)).toBeNull();
  });

  it('looks only inside the rectangles it is given', () => {
    const l = labelled([100, 200], [150, 260], [900, 310], [20, 20]);
    const rects = [
      { x0: 90, x1: 200, y0: 190, y1: 300 },
      { x0: 800, x1: 1000, y0: 300, y1: 320 },
    ];
    expect(silhouetteBoxes(l, layout, 5, rects)).toEqual([
      { x0: 95, x1: 156, y0: 195, y1: 266 },
      { x0: 895, x1: 906, y0: 305, y1: 316 },
    ]);
    // the whole frame sees the pixel at (20, 20) too
    expect(silhouetteBoxes(l, layout, 5)?.[0]).toEqual({ x0: 15, x1: 156, y0: 15, y1: 266 });
  });
});

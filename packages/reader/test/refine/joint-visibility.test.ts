import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  createRasterTarget,
  jointProjectedArea,
  jointVisibility,
  projectVertices,
  rasterizeViews,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const L = DEFAULT_LAYOUT;
const m = L.M_PER_PX;

/** An axis-aligned box as 12 triangles, with `offset` added to its vertex indices. */
function box(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number, offset = 0) {
  const p: number[] = [];
  for (const z of [z0, z1]) for (const y of [y0, y1]) for (const x of [x0, x1]) p.push(x, y, z);
  const q = [
    [0, 1, 3, 2],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 3, 7, 5],
  ];
  return { world: p, indices: q.flatMap(([a, b, c, d]) => [a, b, c, a, c, d].map((i) => i + offset)) };
}

describe('jointProjectedArea', () => {
  it("is a closed part's silhouette area in each view, hidden or not", () => {
    // x spans 20 px, y 30 px, z 10 px: the front view sees 20 x 10, the side view 30 x 10.
    const b = box(0, 20 * m, 0, 30 * m, 40 * m, 50 * m);
    const proj = projectVertices(new Float64Array(24), Float64Array.from(b.world), 8, L);
    const out = new Float64Array(4);
    jointProjectedArea(out, proj, Uint32Array.from(b.indices), new Int32Array(12).fill(1));
    expect(out[0]).toBe(0);
    expect(out[2]).toBeCloseTo(200, 6);
    expect(out[3]).toBeCloseTo(300, 6);
  });

  it('against the visible pixels, gives the share of a part the other hides', () => {
    // Joint 0's box stands in front of (smaller y) half of joint 1's box in the front view.
    const near = box(0, 20 * m, -30 * m, -20 * m, 0, 20 * m);
    const far = box(10 * m, 30 * m, 0, 10 * m, 0, 20 * m, 8);
    const world = Float64Array.from([...near.world, ...far.world]);
    const indices = Uint32Array.from([...near.indices, ...far.indices]);
    const faceJoint = Int32Array.from([...new Array(12).fill(0), ...new Array(12).fill(1)]);
    const proj = projectVertices(new Float64Array(48), world, 16, L);
    const raster = rasterizeViews(createRasterTarget(L), world, proj, indices, new Uint8Array(24).fill(1));
    const px = new Float64Array(4);
    const area = new Float64Array(4);
    jointVisibility(px, raster, faceJoint);
    jointProjectedArea(area, proj, indices, faceJoint);
    expect(px[0] / area[0]).toBeCloseTo(1, 6);
    expect(px[2] / area[2]).toBeCloseTo(0.5, 6);
    // The side view shows both whole (they do not overlap along y).
    expect(px[1] / area[1]).toBeCloseTo(1, 6);
    expect(px[3] / area[3]).toBeCloseTo(1, 6);
  });
});

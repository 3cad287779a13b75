import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  createRasterTarget,
  jointProjectedArea,
  jointVisibility,
  projectVertices,
  rasterizeViews,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { boxMesh } from './box-mesh.js';

const L = DEFAULT_LAYOUT;
const m = L.M_PER_PX;

describe('jointProjectedArea', () => {
  it("is a closed part's silhouette area in each view, hidden or not", () => {
    // x spans 20 px, y 30 px, z 10 px: the front view sees 20 x 10, the side view 30 x 10.
    const b = boxMesh(0, 20 * m, 0, 30 * m, 40 * m, 50 * m);
    const proj = projectVertices(new Float64Array(24), b.world, 8, L);
    const out = new Float64Array(4);
    jointProjectedArea(out, proj, b.indices, new Int32Array(12).fill(1));
    expect(out[0]).toBe(0);
    expect(out[2]).toBeCloseTo(200, 6);
    expect(out[3]).toBeCloseTo(300, 6);
  });

  it('against the visible pixels, gives the share of a part the other hides', () => {
    // Joint 0's box stands in front of (smaller y) half of joint 1's box in the front view.
    const near = boxMesh(0, 20 * m, -30 * m, -20 * m, 0, 20 * m);
    const far = boxMesh(10 * m, 30 * m, 0, 10 * m, 0, 20 * m);
    const world = Float64Array.from([...near.world, ...far.world]);
    const indices = Uint32Array.from([...near.indices, ...Array.from(far.indices, (i) => i + 8)]);
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

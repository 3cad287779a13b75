import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  createRasterTarget,
  jointProjectedArea,
  jointVisibility,
  projectVertices,
  type RasterTarget,
  rasterizeViews,
  visibleGroups,
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

describe('jointVisibility and visibleGroups', () => {
  /** Both counts by a pass over the whole raster. */
  function everyPixel(r: RasterTarget, faceJoint: Int32Array) {
    const px = new Float64Array(4);
    const groups = new Float64Array(4);
    for (let y = 0; y < r.height; y++)
      for (let x = 0; x < r.width; x++) {
        const i = y * r.width + x;
        const view = x < r.sideStart ? 0 : 1;
        if (r.face[i]! >= 0) px[2 * faceJoint[r.face[i]!]! + view]!++;
        if (r.label[i]! >= 2) groups[2 * (r.label[i]! - 2) + view]!++;
      }
    return { px, groups };
  }

  it('count what the last rasterisation drew, as a pass over every pixel does, after a larger one', () => {
    const big = boxMesh(0, 200 * m, 0, 150 * m, 0, 120 * m);
    const small = boxMesh(50 * m, 70 * m, 20 * m, 40 * m, 30 * m, 60 * m);
    const faceJoint = Int32Array.from([...new Array(6).fill(0), ...new Array(6).fill(1)]);
    // paint group 0 on the first half of the triangles, group 1 on the rest
    const labels = Uint8Array.from([...new Array(6).fill(2), ...new Array(6).fill(3)]);
    const target = createRasterTarget(L, 2);
    for (const b of [big, small]) {
      rasterizeViews(
        target,
        b.world,
        projectVertices(new Float64Array(24), b.world, 8, L),
        b.indices,
        labels,
      );
      const px = new Float64Array(4);
      const groups = new Float64Array(4);
      jointVisibility(px, target, faceJoint);
      visibleGroups(groups, target, 2);
      const all = everyPixel(target, faceJoint);
      expect(Array.from(px)).toEqual(Array.from(all.px));
      expect(Array.from(groups)).toEqual(Array.from(all.groups));
      expect(px[0]! + px[2]!).toBeGreaterThan(0);
    }
  });
});

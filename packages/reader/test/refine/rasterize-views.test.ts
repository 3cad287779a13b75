import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  createRasterTarget,
  faceLabels,
  jointWorldMatrices,
  LABEL_BODY,
  LABEL_GROUP0,
  linearBlendSkin,
  projectVertices,
  rasterizeDepth,
  rasterizeViews,
  restJointPose,
  skinningMatrices,
  vertexPaintLabels,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { boxMesh } from './box-mesh.js';
import { FOX_LAYOUT, FOX_PAINT, readFox } from './fox-fixture.js';

const L = DEFAULT_LAYOUT;
const m = L.M_PER_PX;

function count(t: ReturnType<typeof createRasterTarget>, label: number, from: number, to: number) {
  let n = 0;
  for (let y = 0; y < t.height; y++)
    for (let x = from; x < to; x++) if (t.label[y * t.width + x] === label) n++;
  return n;
}

describe('rasterizeViews', () => {
  it('fills exactly the pixels whose centres a box covers, in both views', () => {
    // x spans 20 px, y 30 px, z 10 px
    const b = boxMesh(0, 20 * m, 0, 30 * m, 40 * m, 50 * m);
    const proj = projectVertices(new Float64Array(24), b.world, 8, L);
    const t = rasterizeViews(createRasterTarget(L), b.world, proj, b.indices, new Uint8Array(12).fill(3));
    expect(count(t, 3, 0, t.sideStart)).toBe(20 * 10);
    expect(count(t, 3, t.sideStart, t.width)).toBe(30 * 10);
    const t2 = rasterizeViews(createRasterTarget(L, 2), b.world, proj, b.indices, new Uint8Array(12).fill(3));
    expect(count(t2, 3, 0, t2.sideStart)).toBe(10 * 5);
  });

  it('keeps the nearest face: front by world y, side by world x', () => {
    const near = boxMesh(0, 20 * m, -30 * m, -20 * m, 0, 20 * m); // nearer the front camera (smaller y)
    const far = boxMesh(-40 * m, 40 * m, 0, 10 * m, 10 * m, 30 * m); // reaches further -x: nearer the side camera
    const world = Float64Array.from([...near.world, ...far.world]);
    const indices = Uint32Array.from([...near.indices, ...Array.from(far.indices, (i) => i + 8)]);
    const labels = Uint8Array.from([...new Array(12).fill(2), ...new Array(12).fill(5)]);
    const proj = projectVertices(new Float64Array(48), world, 16, L);
    const t = rasterizeViews(createRasterTarget(L), world, proj, indices, labels);
    const at = (u: number, v: number) => t.label[Math.floor(v) * t.width + Math.floor(u)];
    const [fu, fv] = [L.W_FRONT / 2 + 10, L.GROUND_V - 15]; // inside both boxes in the front view
    expect(at(fu, fv)).toBe(2);
    expect(t.depth[Math.floor(fv) * t.width + Math.floor(fu)]).toBeCloseTo(-30 * m, 6);
    const su = L.W_FRONT + L.W_SIDE / 2 + 25; // y = -25 px: only the near box there
    expect(at(su, fv)).toBe(2);
    const su2 = L.W_FRONT + L.W_SIDE / 2 - 5; // y = +5 px: the far box, x from -40
    expect(at(su2, fv)).toBe(5);
  });

  it('matches a brute-force point-in-triangle rasteriser on the skinned Fox, with paint labels', async () => {
    const mesh = await readFox();
    const world = new Float64Array(mesh.jointNames.length * 16);
    const skin = new Float64Array(mesh.jointNames.length * 16);
    jointWorldMatrices(world, mesh, restJointPose(mesh), mesh.toWorld);
    skinningMatrices(skin, mesh, world);
    const verts = linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
    const vl = vertexPaintLabels(mesh, FOX_PAINT);
    const fl = faceLabels(mesh.indices, vl);
    for (let g = 0; g < FOX_PAINT.length; g++)
      expect(vl.filter((l) => l === LABEL_GROUP0 + g).length).toBeGreaterThan(20);
    expect(vl.filter((l) => l === LABEL_BODY).length).toBeGreaterThan(300);
    const proj = projectVertices(new Float64Array(mesh.vertexCount * 3), verts, mesh.vertexCount, FOX_LAYOUT);
    const t = rasterizeViews(createRasterTarget(FOX_LAYOUT), verts, proj, mesh.indices, fl);
    // independent reference: every pixel centre against every triangle's bounding box + barycentrics
    const cover = new Uint8Array(t.width * t.height);
    const f = mesh.indices.length / 3;
    for (let tri = 0; tri < f; tri++) {
      for (const view of [0, 1]) {
        const pts = [0, 1, 2].map((k) => {
          const v = mesh.indices[3 * tri + k];
          return [proj[3 * v + view], proj[3 * v + 2]];
        });
        const [a, b, c] = pts as [number[], number[], number[]];
        const area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        if (area === 0) continue;
        const xs = [a[0], b[0], c[0]];
        const ys = [a[1], b[1], c[1]];
        const lo = view === 0 ? 0 : t.sideStart;
        const hi = view === 0 ? t.sideStart : t.width;
        for (
          let y = Math.max(0, Math.floor(Math.min(...ys)) - 1);
          y <= Math.min(t.height - 1, Math.max(...ys) + 1);
          y++
        ) {
          for (
            let x = Math.max(lo, Math.floor(Math.min(...xs)) - 1);
            x < Math.min(hi, Math.max(...xs) + 1);
            x++
          ) {
            const px = x + 0.5;
            const py = y + 0.5;
            const e = (p: number[], q: number[]) =>
              ((q[0] - p[0]) * (py - p[1]) - (q[1] - p[1]) * (px - p[0])) / area;
            if (e(a, b) >= -1e-12 && e(b, c) >= -1e-12 && e(c, a) >= -1e-12) cover[y * t.width + x] = 1;
          }
        }
      }
    }
    let mism = 0;
    let covered = 0;
    for (let i = 0; i < cover.length; i++) {
      covered += cover[i];
      if ((cover[i] === 1) !== (t.label[i] !== 0)) mism++;
    }
    expect(covered).toBeGreaterThan(20_000);
    expect(mism).toBeLessThanOrEqual(covered * 1e-3); // only pixel centres exactly on an edge may differ
    for (let g = 0; g < FOX_PAINT.length; g++) {
      expect(
        count(t, LABEL_GROUP0 + g, 0, t.sideStart) + count(t, LABEL_GROUP0 + g, t.sideStart, t.width),
      ).toBeGreaterThan(50);
    }
  });

  it('a target drawn again holds only the new mesh: what a fresh target holds (depth-only passes leave the labels)', () => {
    const a = boxMesh(-60 * m, 60 * m, -50 * m, 50 * m, 0, 90 * m);
    const b = boxMesh(10 * m, 20 * m, 5 * m, 25 * m, 30 * m, 40 * m);
    const draw = (box: typeof a, t: ReturnType<typeof createRasterTarget>, label: number, full = true) => {
      const proj = projectVertices(new Float64Array(24), box.world, 8, L);
      if (full) return rasterizeViews(t, box.world, proj, box.indices, new Uint8Array(12).fill(label));
      return rasterizeDepth(t, box.world, proj, box.indices);
    };
    const t = draw(a, createRasterTarget(L, 2), 4);
    draw(b, t, 0, false);
    expect(t.depth).toEqual(draw(b, createRasterTarget(L, 2), 0, false).depth);
    expect(t.label).toEqual(draw(a, createRasterTarget(L, 2), 4).label);
    draw(b, t, 6);
    const fresh = draw(b, createRasterTarget(L, 2), 6);
    expect(t.depth).toEqual(fresh.depth);
    expect(t.label).toEqual(fresh.label);
    expect(t.face).toEqual(fresh.face);
  });
});

import type { Layout } from '@mocap/layout';
import type { PixelRect } from './distance-transform.js';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { linearBlendSkin } from './linear-blend-skin.js';
import { LABEL_BODY, LABEL_GROUP0 } from './paint-labels.js';
import { pixelRects } from './pixel-rects.js';
import { projectVertices, type RasterTarget } from './rasterize-views.js';
import { poseRoot, type RefinePose } from './refine-pose-state.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { skinningMatrices } from './skinning-matrices.js';

/**
 * Per paint group and view, the box (u0, u1, v0, v1; layout px) of the group's vertices at a pose,
 * grown by `margin`: where that group's paint can be this frame.
 */
export function groupBoxes(
  out: Float64Array,
  mesh: SkinnedMesh,
  vlabels: Uint8Array,
  state: RefinePose,
  layout: Layout,
  groups: number,
  margin: number,
  s: { world: Float64Array; skin: Float64Array; verts: Float64Array; proj: Float64Array },
): void {
  const root = poseRoot(new Float64Array(16), mesh.toWorld, state);
  jointWorldMatrices(s.world, mesh, state.pose, root);
  skinningMatrices(s.skin, mesh, s.world);
  linearBlendSkin(s.verts, mesh, s.skin);
  projectVertices(s.proj, s.verts, mesh.vertexCount, layout);
  for (let b = 0; b < groups * 2; b++) out.set([Infinity, -Infinity, Infinity, -Infinity], 4 * b);
  for (let v = 0; v < mesh.vertexCount; v++) {
    const g = vlabels[v] - LABEL_GROUP0;
    if (g < 0) continue;
    for (let view = 0; view < 2; view++) {
      const o = 4 * (2 * g + view);
      const u = s.proj[3 * v + view];
      const r = s.proj[3 * v + 2];
      if (u < out[o]) out[o] = u;
      if (u > out[o + 1]) out[o + 1] = u;
      if (r < out[o + 2]) out[o + 2] = r;
      if (r > out[o + 3]) out[o + 3] = r;
    }
  }
  for (let b = 0; b < groups * 2; b++) {
    out[4 * b] -= margin;
    out[4 * b + 1] += margin;
    out[4 * b + 2] -= margin;
    out[4 * b + 3] += margin;
  }
}

/** Per paint group and view (index `2 g + view`): pixels of a raster showing the group. */
export function visibleGroups(out: Float64Array, r: RasterTarget, groups: number): void {
  out.fill(0);
  // the last full rasterisation drew only inside this box and cleared everything outside it
  const [x0, y0, x1, y1] = r.labelled;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const g = r.label[y * r.width + x] - LABEL_GROUP0;
      if (g >= 0 && g < groups) out[2 * g + (x < r.sideStart ? 0 : 1)]++;
    }
  }
}

/**
 * Paint pixels outside their group's box ({@link groupBoxes}; NaN: nowhere) become body. With
 * `rects`, only the pixels inside them are looked at (where a segmentation limited to them put
 * every label).
 */
export function gatePaint(
  labels: Uint8Array,
  layout: Layout,
  boxes: Float64Array,
  rects: readonly PixelRect[] | null = null,
): void {
  const w = layout.WIDTH;
  for (const { x0, x1, y0, y1 } of pixelRects(rects, w, layout.HEIGHT)) {
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = y * w + x;
        const g = labels[i] - LABEL_GROUP0;
        if (g < 0) continue;
        const o = 4 * (2 * g + (x < layout.W_FRONT ? 0 : 1));
        if (
          !(x + 0.5 >= boxes[o]) ||
          x + 0.5 > boxes[o + 1] ||
          y + 0.5 < boxes[o + 2] ||
          y + 0.5 > boxes[o + 3]
        )
          labels[i] = LABEL_BODY;
      }
    }
  }
}

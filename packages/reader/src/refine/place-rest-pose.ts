import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { backdropColours } from './backdrop-gains.js';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { linearBlendSkin } from './linear-blend-skin.js';
import { faceLabels } from './paint-labels.js';
import { createRasterTarget, projectVertices, rasterizeViews } from './rasterize-views.js';
import { type RefinePose, restRefinePose } from './refine-pose-state.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { skinningMatrices } from './skinning-matrices.js';

/** Columns either side of the divider that a soft frame darkens (a 1.5 px blur: 3). */
const DIVIDER_BLEED = 4;

/**
 * The creature's silhouette in a layout frame without a colour model: every pixel whose colour is
 * more than `threshold` (sum of absolute RGB differences) from both the wall's and the floor's
 * median colour, the divider and 4 px either side of it excluded (a blurred clip's divider bleeds
 * that far). One byte per layout px (1 = creature).
 */
export function backdropSilhouette(image: RgbImage, layout: Layout, threshold = 40): Uint8Array {
  const bg = backdropColours(image, layout);
  const w = image.width;
  const out = new Uint8Array(w * image.height);
  const d = image.data;
  const div0 = layout.W_FRONT - layout.DIVIDER_PX - DIVIDER_BLEED;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < w; x++) {
      if (x >= div0 && x < layout.W_FRONT + DIVIDER_BLEED) continue;
      const i = y * w + x;
      const r = d[3 * i];
      const g = d[3 * i + 1];
      const b = d[3 * i + 2];
      const dw = Math.abs(r - bg[0]) + Math.abs(g - bg[1]) + Math.abs(b - bg[2]);
      const df = Math.abs(r - bg[3]) + Math.abs(g - bg[4]) + Math.abs(b - bg[5]);
      if (dw > threshold && df > threshold) out[i] = 1;
    }
  }
  return out;
}

/** Per view (front, side): pixel count and mean column and row of a mask's nonzero pixels. */
function viewMoments(mask: ArrayLike<number>, layout: Layout): number[] {
  const m = [0, 0, 0, 0, 0, 0];
  for (let y = 0; y < layout.HEIGHT; y++) {
    for (let x = 0; x < layout.WIDTH; x++) {
      if (!mask[y * layout.WIDTH + x]) continue;
      const o = x < layout.W_FRONT ? 0 : 3;
      m[o]++;
      m[o + 1] += x + 0.5;
      m[o + 2] += y + 0.5;
    }
  }
  for (const o of [0, 3]) if (m[o] > 0) for (const c of [1, 2]) m[o + c] /= m[o];
  return m;
}

/** Per view (front, side): the pixel count of a mask's nonzero pixels (layout px). */
export function silhouetteAreas(mask: ArrayLike<number>, layout: Layout): [number, number] {
  const m = viewMoments(mask, layout);
  return [m[0], m[3]];
}

/**
 * The rest pose placed on an observed silhouette (a mask in layout px, nonzero = creature): the
 * translation that moves the rest mesh's silhouette centroid onto the observed one in both views
 * (x from the front view's columns, y from the side view's, z from both views' rows). A generated
 * clip starts from the reference frame, so its first frame is near the rest pose; this is the
 * refinement's start there. Also returns the rest pose's labels rasterised at that placement
 * (layout px; 0 backdrop, 1 body, 2 + g paint group g), e.g. to fit a colour model on the frame,
 * and its pixel count per view (`areas`, front and side), e.g. to tell whether the frame shows the
 * whole creature.
 *
 * ```ts
 * const { state, labels } = placeRestPose(mesh, vlabels, layout, backdropSilhouette(ref, layout));
 * ```
 */
export function placeRestPose(
  mesh: SkinnedMesh,
  vertexLabels: Uint8Array,
  layout: Layout,
  silhouette: ArrayLike<number>,
): { state: RefinePose; labels: Uint8Array; areas: [number, number] } {
  const state = restRefinePose(mesh);
  const nj = mesh.jointNames.length;
  const world = jointWorldMatrices(new Float64Array(nj * 16), mesh, state.pose, mesh.toWorld);
  const skin = skinningMatrices(new Float64Array(nj * 16), mesh, world);
  const verts = linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
  const flabels = faceLabels(mesh.indices, vertexLabels);
  const target = createRasterTarget(layout);
  const proj = new Float64Array(mesh.vertexCount * 3);
  rasterizeViews(
    target,
    verts,
    projectVertices(proj, verts, mesh.vertexCount, layout),
    mesh.indices,
    flabels,
  );
  const seen = viewMoments(silhouette, layout);
  const model = viewMoments(target.label, layout);
  if (seen[0] === 0 || seen[3] === 0) {
    throw new Error(
      `placeRestPose: the observed silhouette is empty in the ${seen[0] === 0 ? 'front' : 'side'} view; is the creature in the frame?`,
    );
  }
  const px = layout.M_PER_PX;
  state.translation[0] = (seen[1] - model[1]) * px;
  state.translation[1] = -(seen[4] - model[4]) * px;
  state.translation[2] = -((seen[2] - model[2] + seen[5] - model[5]) / 2) * px;
  for (let v = 0; v < mesh.vertexCount; v++) {
    for (let c = 0; c < 3; c++) verts[3 * v + c] += state.translation[c];
  }
  rasterizeViews(
    target,
    verts,
    projectVertices(proj, verts, mesh.vertexCount, layout),
    mesh.indices,
    flabels,
  );
  return { state, labels: target.label, areas: silhouetteAreas(target.label, layout) };
}

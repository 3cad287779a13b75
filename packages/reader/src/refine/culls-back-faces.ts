import type { Layout } from '@mocap/layout';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { linearBlendSkin } from './linear-blend-skin.js';
import { createRasterTarget, projectVertices, rasterizeDepth } from './rasterize-views.js';
import { restJointPose } from './rest-joint-pose.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { skinningMatrices } from './skinning-matrices.js';

/**
 * Whether skipping a mesh's back faces leaves its depth raster as it is: both views of the rest
 * pose, at `factor`, drawn with and without them, equal at every pixel. True for a closed mesh wound
 * as glTF asks (counter-clockwise from the front); false for one-sided parts (a wing as a single
 * sheet), inverted winding, or holes the views look through at rest.
 *
 * ```ts
 * const cull = cullsBackFaces(mesh, layout); // then rasterizeDepth(..., cull)
 * ```
 */
export function cullsBackFaces(mesh: SkinnedMesh, layout: Layout, factor = 2): boolean {
  // a clip's objectives (the fit's and the first frame's paint pass) share the mesh: check once
  const key = `${factor} ${JSON.stringify(layout)}`;
  const known = checked.get(mesh) ?? new Map<string, boolean>();
  checked.set(mesh, known);
  const cull = known.get(key) ?? restDepthsAgree(mesh, layout, factor);
  known.set(key, cull);
  return cull;
}

const checked = new WeakMap<SkinnedMesh, Map<string, boolean>>();

function restDepthsAgree(mesh: SkinnedMesh, layout: Layout, factor: number): boolean {
  const nj = mesh.jointNames.length;
  const world = jointWorldMatrices(new Float64Array(nj * 16), mesh, restJointPose(mesh), mesh.toWorld);
  const skin = skinningMatrices(new Float64Array(nj * 16), mesh, world);
  const verts = linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
  const proj = projectVertices(new Float64Array(mesh.vertexCount * 3), verts, mesh.vertexCount, layout);
  const all = rasterizeDepth(createRasterTarget(layout, factor), verts, proj, mesh.indices).depth;
  const front = rasterizeDepth(createRasterTarget(layout, factor), verts, proj, mesh.indices, true).depth;
  for (let i = 0; i < all.length; i++) if (all[i] !== front[i]) return false;
  return true;
}

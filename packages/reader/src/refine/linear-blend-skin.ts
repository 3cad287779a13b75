import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Linear blend skinning: `out[v] = sum_k w[v,k] * skin[j[v,k]] * bind[v]` for every vertex, with
 * `skin` the per-joint skinning matrices (J x 16, column-major; {@link skinningMatrices}).
 * Writes N x 3 positions into `out` and returns it; allocates nothing.
 *
 * ```ts
 * jointWorldMatrices(world, mesh, pose, mesh.toWorld);
 * skinningMatrices(skin, mesh, world);
 * linearBlendSkin(verts, mesh, skin);
 * ```
 */
export function linearBlendSkin(out: Float64Array, mesh: SkinnedMesh, skin: Float64Array): Float64Array {
  const n = mesh.vertexCount;
  if (out.length < n * 3) {
    throw new RangeError(`linearBlendSkin: expected an output of ${n * 3} values, got ${out.length}.`);
  }
  const pos = mesh.positions;
  const jt = mesh.joints;
  const wt = mesh.weights;
  for (let v = 0; v < n; v++) {
    const x = pos[3 * v];
    const y = pos[3 * v + 1];
    const z = pos[3 * v + 2];
    let ox = 0;
    let oy = 0;
    let oz = 0;
    for (let k = 0; k < 4; k++) {
      const w = wt[4 * v + k];
      if (w === 0) continue;
      const m = 16 * jt[4 * v + k];
      ox += w * (skin[m] * x + skin[m + 4] * y + skin[m + 8] * z + skin[m + 12]);
      oy += w * (skin[m + 1] * x + skin[m + 5] * y + skin[m + 9] * z + skin[m + 13]);
      oz += w * (skin[m + 2] * x + skin[m + 6] * y + skin[m + 10] * z + skin[m + 14]);
    }
    out[3 * v] = ox;
    out[3 * v + 1] = oy;
    out[3 * v + 2] = oz;
  }
  return out;
}

import { mat4CopyAt, mat4MulAt } from './mat4-ops.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Skinning matrices (J x 16): `world[j] * inverseBind[j]`, the matrices linear blend skinning
 * applies to bind-space vertices.
 */
export function skinningMatrices(out: Float64Array, mesh: SkinnedMesh, world: Float64Array): Float64Array {
  const j = mesh.jointNames.length;
  for (let i = 0; i < j; i++) {
    mat4MulAt(scratch, 0, world, 16 * i, mesh.inverseBind, 16 * i);
    mat4CopyAt(out, 16 * i, scratch, 0);
  }
  return out;
}

const scratch = new Float64Array(16);

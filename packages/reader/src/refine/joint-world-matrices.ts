import type { JointPose } from './joint-pose.js';
import { mat4FromTrs, mat4MulAt } from './mat4-ops.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Per-joint world matrices (J x 16, column-major) of a pose: each joint's local TRS times its
 * parent's world matrix, the skin's root joints under `mesh.baseWorld` and then under `root`
 * (an extra 4 x 4, e.g. {@link SkinnedMesh.toWorld} to go from glTF's Y-up units to the layout's
 * Z-up metres). Allocation-free.
 *
 * ```ts
 * const world = new Float64Array(mesh.jointNames.length * 16);
 * jointWorldMatrices(world, mesh, pose, mesh.toWorld);
 * ```
 */
export function jointWorldMatrices(
  out: Float64Array,
  mesh: SkinnedMesh,
  pose: JointPose,
  root: ArrayLike<number>,
): Float64Array {
  const local = scratch.local;
  for (let k = 0; k < mesh.order.length; k++) {
    const j = mesh.order[k];
    mat4FromTrs(local, 0, pose.translation, 3 * j, pose.rotation, 4 * j, pose.scale, 3 * j);
    const p = mesh.parent[j];
    if (p >= 0) {
      mat4MulAt(out, 16 * j, out, 16 * p, local, 0);
    } else {
      mat4MulAt(scratch.base, 0, root, 0, mesh.baseWorld, 16 * j);
      mat4MulAt(out, 16 * j, scratch.base, 0, local, 0);
    }
  }
  return out;
}

const scratch = { local: new Float64Array(16), base: new Float64Array(16) };

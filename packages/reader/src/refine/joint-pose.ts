import { mat4CopyAt, mat4FromTrs, mat4MulAt } from './mat4-ops.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Local transforms of a skin's joints, flat over joints: `translation` (J x 3), `rotation`
 * (J x 4 unit quaternions, X, Y, Z, W as glTF stores them), `scale` (J x 3).
 */
export interface JointPose {
  translation: Float64Array;
  rotation: Float64Array;
  scale: Float64Array;
}

/** A new pose holding a copy of the mesh's rest (node) transforms. */
export function restJointPose(mesh: SkinnedMesh): JointPose {
  return copyJointPose(
    {
      translation: new Float64Array(mesh.rest.translation.length),
      rotation: new Float64Array(mesh.rest.rotation.length),
      scale: new Float64Array(mesh.rest.scale.length),
    },
    mesh.rest,
  );
}

/** Copies `src` into `out` (same joint count) and returns `out`. */
export function copyJointPose(out: JointPose, src: JointPose): JointPose {
  out.translation.set(src.translation);
  out.rotation.set(src.rotation);
  out.scale.set(src.scale);
  return out;
}

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

/**
 * Skinning matrices (J x 16): `world[j] * inverseBind[j]`, the matrices linear blend skinning
 * applies to bind-space vertices.
 */
export function skinningMatrices(out: Float64Array, mesh: SkinnedMesh, world: Float64Array): Float64Array {
  const j = mesh.jointNames.length;
  for (let i = 0; i < j; i++) {
    mat4MulAt(scratch.local, 0, world, 16 * i, mesh.inverseBind, 16 * i);
    mat4CopyAt(out, 16 * i, scratch.local, 0);
  }
  return out;
}

const scratch = { local: new Float64Array(16), base: new Float64Array(16) };

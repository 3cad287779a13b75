import { type Layout, projectPoints } from '@mocap/layout';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { poseRoot, type RefinePose } from './refine-pose-state.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/** A rig keypoint as rig_info.json states it: a bone's head or tail, and the bone's length (metres). */
export interface RigKeypointSpec {
  name: string;
  bone: string;
  end: 'head' | 'tail';
  length: number;
}

/**
 * Rig keypoints on a skinned mesh Blender exported from the armature (a joint node per bone, the
 * bone's Y axis along it): keypoint k rides joint `joints[k]` at `offsets[3k..3k+2]` in the joint's
 * frame, the origin for a head, `(0, length, 0)` for a tail. The shape the refinement's keypoint
 * terms take (`KeypointTargets`).
 */
export interface RigKeypoints {
  names: string[];
  joints: Int32Array;
  offsets: Float64Array;
}

/**
 * Maps rig keypoints (rig_info.json `keypoints` with their bones' lengths) onto the skinned mesh's
 * joints; a bone that is not a joint of the mesh throws, naming it.
 *
 * ```ts
 * const kp = rigKeypoints(mesh, info.keypoints.map((k) => ({ ...k, length: lengthOf[k.bone] })));
 * ```
 */
export function rigKeypoints(
  mesh: SkinnedMesh,
  specs: readonly RigKeypointSpec[],
  file = 'the rig',
): RigKeypoints {
  const joints = new Int32Array(specs.length);
  const offsets = new Float64Array(specs.length * 3);
  specs.forEach((s, k) => {
    const j = mesh.jointNames.indexOf(s.bone);
    if (j < 0) {
      throw new Error(
        `rigKeypoints: ${file}: keypoints[${k}] "${s.name}" rides bone "${s.bone}", which is not a joint of the skinned mesh (${mesh.jointNames.length} joints).`,
      );
    }
    joints[k] = j;
    if (s.end === 'tail') offsets[3 * k + 1] = s.length;
  });
  return { names: specs.map((s) => s.name), joints, offsets };
}

/**
 * World positions (metres, layout world) of the rig keypoints at a refined pose: K x 3 into `out`.
 * `world` is scratch of J x 16 (allocated when left out).
 */
export function rigKeypointPositions(
  out: Float64Array,
  mesh: SkinnedMesh,
  state: RefinePose,
  kp: RigKeypoints,
  world: Float64Array = new Float64Array(mesh.jointNames.length * 16),
): Float64Array {
  const root = poseRoot(new Float64Array(16), mesh.toWorld, state);
  jointWorldMatrices(world, mesh, state.pose, root);
  for (let k = 0; k < kp.joints.length; k++) {
    const m = 16 * kp.joints[k];
    const x = kp.offsets[3 * k];
    const y = kp.offsets[3 * k + 1];
    const z = kp.offsets[3 * k + 2];
    for (let c = 0; c < 3; c++) {
      out[3 * k + c] = world[m + c] * x + world[m + 4 + c] * y + world[m + 8 + c] * z + world[m + 12 + c];
    }
  }
  return out;
}

/**
 * Projects K world points (metres) into both views as det.npz holds them: `front` and `side`
 * (K x 2 each, layout px: u, v) at `offset` (in points).
 */
export function projectKeypoints(
  front: Float32Array | Float64Array,
  side: Float32Array | Float64Array,
  offset: number,
  world: Float64Array,
  k: number,
  layout: Layout,
): void {
  projectPoints(
    front.subarray(2 * offset, 2 * (offset + k)),
    side.subarray(2 * offset, 2 * (offset + k)),
    world.subarray(0, 3 * k),
    layout,
  );
}

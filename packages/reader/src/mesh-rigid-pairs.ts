import type { Layout } from '@mocap/layout';
import { restRefinePose } from './refine/refine-pose-state.js';
import { type RigKeypoints, rigKeypointPositions } from './refine/rig-keypoints.js';
import type { SkinnedMesh } from './refine/skinned-mesh.js';
import { type RigidPair, rigidPairs } from './rigid-pairs.js';

/**
 * {@link rigidPairs} of the rig keypoints on the creature's skinned mesh: where each rides, which
 * are heads (no offset along the bone), the mesh's joint parents and the rest pose's positions.
 *
 * ```ts
 * const pairs = meshRigidPairs(mesh, rigKeypoints(mesh, specs), layout, 40);
 * ```
 */
export function meshRigidPairs(
  mesh: SkinnedMesh,
  kp: RigKeypoints,
  layout: Layout,
  minPx: number,
): RigidPair[] {
  const k = kp.names.length;
  const rest = rigKeypointPositions(new Float64Array(3 * k), mesh, restRefinePose(mesh), kp);
  const head = Array.from(
    { length: k },
    (_, i) => kp.offsets[3 * i] === 0 && kp.offsets[3 * i + 1] === 0 && kp.offsets[3 * i + 2] === 0,
  );
  return rigidPairs(
    { rides: kp.joints, head, parent: mesh.parent, rest, metresPerPx: layout.M_PER_PX },
    minPx,
  );
}

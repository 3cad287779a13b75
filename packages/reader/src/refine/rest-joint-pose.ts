import { copyJointPose, type JointPose } from './joint-pose.js';
import type { SkinnedMesh } from './skinned-mesh.js';

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

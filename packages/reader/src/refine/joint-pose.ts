/**
 * Local transforms of a skin's joints, flat over joints: `translation` (J x 3), `rotation`
 * (J x 4 unit quaternions, X, Y, Z, W as glTF stores them), `scale` (J x 3).
 */
export interface JointPose {
  translation: Float64Array;
  rotation: Float64Array;
  scale: Float64Array;
}

/** Copies `src` into `out` (same joint count) and returns `out`. */
export function copyJointPose(out: JointPose, src: JointPose): JointPose {
  out.translation.set(src.translation);
  out.rotation.set(src.rotation);
  out.scale.set(src.scale);
  return out;
}

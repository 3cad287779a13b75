import { quatFromMat3 } from '@mocap/anim-loop';
import type { CreatureInfo } from './creature-info.js';
import type { FlatMotion } from './flat-motion.js';
import { eulerXyzToMat3, keypointsFromPose, poseFrame } from './forward-kinematics.js';
import type { RigModel } from './rig-model.js';

/** The channels of a generated motion, before it is posed: flat arrays over `frames` frames. */
export interface MotionChannels {
  frames: number;
  fps: number;
  /** Root translation T x 3, metres; X and Y are kept, Z is overwritten by the grounding. */
  trans: Float64Array;
  /** Root XYZ Euler angles T x 3, radians. */
  rootAngles: Float64Array;
  /** Bone XYZ Euler angles T x B x 3, radians. */
  euler: Float64Array;
}

/**
 * Poses generated channels on the ground: the root's Euler angles become its rotation (W, X, Y, Z
 * quaternions with W >= 0), every frame is posed by forward kinematics, and the root is lifted or
 * lowered so that the lowest foot (creature.json `feet`, else the lowest keypoint) touches z = 0.
 * The last step of {@link syntheticMotion} and {@link gaitMotion}; `trans` is written in place and
 * becomes the motion's.
 *
 * ```ts
 * const motion = groundedMotion(model, info, { frames, fps: 30, trans, rootAngles, euler });
 * ```
 */
export function groundedMotion(model: RigModel, info: CreatureInfo, channels: MotionChannels): FlatMotion {
  const { frames: t, fps, trans, rootAngles, euler } = channels;
  const b = model.bones.length;
  const k = model.keypoints.length;
  const rootQuat = new Float64Array(t * 4);
  const rootRot = new Float64Array(t * 9);
  const q = new Float64Array(4);
  for (let f = 0; f < t; f++) {
    eulerXyzToMat3(rootRot, f * 9, rootAngles, f * 3);
    quatFromMat3(q, rootRot.subarray(f * 9, f * 9 + 9));
    if ((q[3] as number) < 0) for (let i = 0; i < 4; i++) q[i] = -(q[i] as number);
    rootQuat[f * 4] = q[3] as number;
    rootQuat[f * 4 + 1] = q[0] as number;
    rootQuat[f * 4 + 2] = q[1] as number;
    rootQuat[f * 4 + 3] = q[2] as number;
  }
  // Pose, then lift or lower the root so the lowest foot touches the ground.
  const joints = new Float64Array(t * k * 3);
  const rot = new Float64Array(b * 9);
  const pos = new Float64Array(b * 3);
  const feet = info.feet.length > 0 ? info.feet : model.keypoints.map((_, j) => j);
  for (let f = 0; f < t; f++) {
    trans[f * 3 + 2] = 0;
    poseFrame(model, rootRot, f * 9, trans, f * 3, euler, f * b * 3, rot, pos);
    keypointsFromPose(model, rot, pos, joints, f * k * 3);
    let low = Number.POSITIVE_INFINITY;
    for (const j of feet) low = Math.min(low, joints[(f * k + j) * 3 + 2] as number);
    trans[f * 3 + 2] = -low;
    for (let j = 0; j < k; j++) joints[(f * k + j) * 3 + 2] = (joints[(f * k + j) * 3 + 2] as number) - low;
  }
  return { frames: t, fps, trans, rootQuat, euler, joints };
}

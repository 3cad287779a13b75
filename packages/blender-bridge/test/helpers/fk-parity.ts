import type { JointsJson } from '@mocap/blender-bridge';
import type { MotionJson, RigInfo } from '@mocap/layout';
import { forwardKinematics } from '@mocap/solver';

/** Largest distance, metres, between the solver's FK joints and Blender's joints.json, over all joints and frames. */
export function fkParity(
  info: RigInfo,
  motion: MotionJson,
  joints: JointsJson,
): { worst: number; compared: number } {
  const posed = forwardKinematics(info, motion);
  const k = posed.names.length;
  let worst = 0;
  let compared = 0;
  for (let t = 0; t < posed.frames; t++) {
    posed.names.forEach((name, j) => {
      const b = joints.joints[t]![joints.names.indexOf(name)];
      if (!b) throw new Error(`fkParity: joints.json has no joint "${name}".`);
      const o = (t * k + j) * 3;
      const d = Math.hypot(posed.joints[o]! - b[0], posed.joints[o + 1]! - b[1], posed.joints[o + 2]! - b[2]);
      worst = Math.max(worst, d);
      compared++;
    });
  }
  return { worst, compared };
}

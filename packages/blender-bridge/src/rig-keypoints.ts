import type { Keypoint, RigJson } from '@mocap/layout';

/**
 * The keypoints of a rig: every joint of rig.json, in its order, as the bone end it is: the
 * tail of the first bone ending there, else the head of the first bone starting there. Joints no
 * bone touches are left out.
 *
 * ```ts
 * rigKeypoints(rig)[0]; // { name: 'pelvis', bone: 'hips', end: 'head' }
 * ```
 */
export function rigKeypoints(rig: Pick<RigJson, 'joints' | 'bones'>): Keypoint[] {
  const out: Keypoint[] = [];
  for (const name of Object.keys(rig.joints)) {
    const tail = rig.bones.find((b) => b[2] === name);
    const head = rig.bones.find((b) => b[1] === name);
    if (tail) out.push({ name, bone: tail[0], end: 'tail' });
    else if (head) out.push({ name, bone: head[0], end: 'head' });
  }
  return out;
}

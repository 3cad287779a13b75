import type { RigModel } from './rig-model.js';

/**
 * The skeleton drawn over the clip: each keypoint joined to the nearest keypoint up the bone
 * chain (its own bone's head for a tail, else an ancestor's tail or head).
 */
export function skeletonPairs(model: RigModel): [string, string][] {
  const at = (bone: number, end: 'head' | 'tail') =>
    model.keypoints.find((k) => k.bone === bone && k.end === end);
  const pairs: [string, string][] = [];
  for (const k of model.keypoints) {
    let up = k.end === 'tail' ? at(k.bone, 'head') : undefined;
    for (let b = model.parent[k.bone] as number; !up && b >= 0; b = model.parent[b] as number) {
      up = at(b, 'tail') ?? at(b, 'head');
    }
    if (up) pairs.push([up.name, k.name]);
  }
  return pairs;
}

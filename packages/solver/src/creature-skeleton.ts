import type { RigJson } from '@mocap/layout';

type Vec3 = [number, number, number];

/** One bone of a {@link CreatureSkeleton}: world rest head and tail, Z up, -Y forward. */
export interface SkeletonBone {
  name: string;
  /** The parent bone, null for the root. */
  parent: string | null;
  head: Vec3;
  tail: Vec3;
}

/** A keypoint of a {@link CreatureSkeleton}, as the rig names it (creature.json `feet` lists these). */
export interface SkeletonKeypoint {
  name: string;
  bone: string;
  end: 'head' | 'tail';
  at: Vec3;
}

/**
 * A creature's skeleton in its rest pose, what {@link proposeCreature} reads: bones parents first,
 * the keypoints the rig will have, and the height of the ground (the same units as the positions).
 */
export interface CreatureSkeleton {
  /** Where it came from, for messages (rig.json or model.glb). */
  source: string;
  bones: SkeletonBone[];
  keypoints: SkeletonKeypoint[];
  ground: number;
  /** The model's extent along Y (its length when it faces -Y), in its units. */
  length: number;
}

/**
 * The skeleton of a rig.json: its bones with their joints' positions; each joint is a keypoint
 * (a bone's tail, or the root bone's head), the ground at z = 0 or the lowest joint below it.
 *
 * ```ts
 * const skeleton = rigJsonSkeleton(await readJsonFile('init', 'creatures/wolf/rig.json', RigJson), 'rig.json');
 * ```
 */
export function rigJsonSkeleton(rig: RigJson, source = 'rig.json'): CreatureSkeleton {
  const at = (j: string): Vec3 => [...(rig.joints[j] as Vec3)];
  const bones = rig.bones.map(([name, head, tail, parent]) => ({
    name,
    parent,
    head: at(head),
    tail: at(tail),
  }));
  const keypoints: SkeletonKeypoint[] = [];
  const seen = new Set<string>();
  for (const [name, head, tail, parent] of rig.bones) {
    if (parent === null && !seen.has(head)) {
      seen.add(head);
      keypoints.push({ name: head, bone: name, end: 'head', at: at(head) });
    }
    if (!seen.has(tail)) {
      seen.add(tail);
      keypoints.push({ name: tail, bone: name, end: 'tail', at: at(tail) });
    }
  }
  const zs = Object.values(rig.joints).map((p) => p[2]);
  const ys = Object.values(rig.joints).map((p) => p[1]);
  return {
    source,
    bones,
    keypoints,
    ground: Math.min(0, ...zs),
    length: Math.max(...ys) - Math.min(...ys),
  };
}

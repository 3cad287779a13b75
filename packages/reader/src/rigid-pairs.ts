/** Two keypoints one rigid part of the creature holds apart by a fixed distance. */
export interface RigidPair {
  a: number;
  b: number;
  /** Their distance, layout px. */
  px: number;
}

/** What {@link rigidPairs} reads of the rig: where each keypoint rides and the rest pose. */
export interface RigidPairsInput {
  /** Per keypoint, the bone (joint index) it rides. */
  rides: ArrayLike<number>;
  /** Per keypoint, whether it is its bone's head (fixed in the parent bone's frame too). */
  head: ArrayLike<boolean>;
  /** Per joint, its parent joint (-1: none). */
  parent: ArrayLike<number>;
  /** Keypoints at rest, K x 3 metres. */
  rest: ArrayLike<number>;
  /** Metres per layout px. */
  metresPerPx: number;
}

/**
 * The pairs of keypoints whose distance no pose changes: both on one bone, or one a bone's head
 * (fixed in its parent's frame) and the other on that parent or another child's head of it. Pairs
 * closer than `minPx` layout px are left out (their measured length is mostly noise).
 *
 * ```ts
 * const pairs = rigidPairs({ rides, head, parent, rest, metresPerPx: layout.M_PER_PX }, 40);
 * ```
 */
export function rigidPairs(r: RigidPairsInput, minPx: number): RigidPair[] {
  const k = r.rides.length;
  const frames = (i: number): number[] => {
    const j = r.rides[i]!;
    const p = r.parent[j] ?? -1;
    return r.head[i] && p >= 0 ? [j, p] : [j];
  };
  const on = Array.from({ length: k }, (_, i) => frames(i));
  const out: RigidPair[] = [];
  for (let a = 0; a < k; a++)
    for (let b = a + 1; b < k; b++) {
      if (!on[a]!.some((j) => on[b]!.includes(j))) continue;
      const d = Math.hypot(
        r.rest[3 * a]! - r.rest[3 * b]!,
        r.rest[3 * a + 1]! - r.rest[3 * b + 1]!,
        r.rest[3 * a + 2]! - r.rest[3 * b + 2]!,
      );
      const px = d / r.metresPerPx;
      if (px >= minPx) out.push({ a, b, px });
    }
  return out;
}

import type { RigInfo } from '@mocap/layout';

/** A rig's joints at rest: name -> armature-space position (x to the creature's left, z up), metres. */
export type RestJoints = Record<string, readonly [number, number, number]>;

/** A joint within this share of the half width of the midline is a centre joint (spine, head, tail). */
const CENTRE = 0.15;
/** The lateral axis counts half: limbs differ more in splay than in height or reach. */
const LATERAL_WEIGHT = 0.5;

/**
 * The rest positions of a rig's joints (rig_info.json's keypoints: each a bone's head or tail).
 *
 * ```ts
 * const rest = restJoints(await readJsonFile('train', 'runs/rigged/rig_info.json', RigInfo));
 * ```
 */
export function restJoints(info: RigInfo): RestJoints {
  const bones = new Map(info.bones.map((b) => [b.name, b]));
  const out: RestJoints = {};
  for (const k of info.keypoints) {
    const b = bones.get(k.bone);
    if (b) out[k.name] = [...b[k.end]] as [number, number, number];
  }
  return out;
}

/**
 * For each joint of `target`, the joint of `source` (another creature's rig) at the nearest place
 * on the body: both skeletons are scaled to their own extent (length and height from the joints'
 * bounding box, width from the widest joint), and a joint is matched on its own side only (left,
 * centre or right of the midline). Fine-tuning starts a joint the source reader has no name for
 * from this joint's heatmap instead of a flat one (see {@link initFromReader}).
 *
 * ```ts
 * restJointMap(restJoints(foxInfo), restJoints(wolfInfo)); // { b_LeftHand_011: 'fwrist.L', ... }
 * ```
 */
export function restJointMap(target: RestJoints, source: RestJoints): Record<string, string> {
  const t = normalised(target);
  const s = Object.entries(normalised(source));
  if (s.length === 0) throw new RangeError('restJointMap: the source rig has no joints.');
  const out: Record<string, string> = {};
  for (const [name, p] of Object.entries(t)) {
    let best = '';
    let bestD = Number.POSITIVE_INFINITY;
    // a side with no source joint (a one-sided source) falls back to every joint
    for (const anySide of [false, true]) {
      for (const [sName, q] of s) {
        if (!anySide && side(q) !== side(p)) continue;
        const d = (LATERAL_WEIGHT * (p[0] - q[0])) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2;
        if (d < bestD) {
          bestD = d;
          best = sName;
        }
      }
      if (best) break;
    }
    out[name] = best;
  }
  return out;
}

/** -1 right, 0 centre, 1 left of the midline. */
function side(p: readonly number[]): number {
  const x = p[0] as number;
  return Math.abs(x) < CENTRE ? 0 : Math.sign(x);
}

/** x over the widest joint's |x|, y about the middle over half the length, z from the lowest over the height. */
function normalised(rest: RestJoints): RestJoints {
  const ps = Object.values(rest);
  if (ps.length === 0) return {};
  const lo = [0, 1, 2].map((a) => Math.min(...ps.map((p) => p[a] as number)));
  const hi = [0, 1, 2].map((a) => Math.max(...ps.map((p) => p[a] as number)));
  const width = Math.max(...ps.map((p) => Math.abs(p[0])));
  const mid = ((lo[1] as number) + (hi[1] as number)) / 2;
  const half = ((hi[1] as number) - (lo[1] as number)) / 2;
  const height = (hi[2] as number) - (lo[2] as number);
  const out: RestJoints = {};
  for (const [name, p] of Object.entries(rest)) {
    out[name] = [
      width > 0 ? p[0] / width : 0,
      half > 0 ? (p[1] - mid) / half : 0,
      height > 0 ? (p[2] - (lo[2] as number)) / height : 0,
    ];
  }
  return out;
}

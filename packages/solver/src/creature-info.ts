import { sideSwapName } from '@mocap/anim-loop';
import { type CreatureJson, FileError } from '@mocap/layout';
import type { RigModel } from './rig-model.js';

/** What the solver needs of creature.json, resolved to keypoint indices of a rig model. */
export interface CreatureInfo {
  /** Keypoints that touch the ground (creature.json `feet`). */
  feet: number[];
  /** Left/right keypoint partners [left, right] (from the bone mirror map). */
  pairs: [number, number][];
  /**
   * Units a left/right label swap exchanges: each holds aligned keypoint lists [a, b]
   * (a paint group and its mirror group; the pairs outside any group form one more unit).
   */
  swapUnits: [number[], number[]][];
  /** Keypoints per paint group; keypoints in no group are in `body`. */
  groups: Record<string, number[]>;
}

/**
 * The bone mirror map: creature.json's `mirror` (either direction), else derived from side markers
 * in the names as anim-loop's {@link sideSwapName} reads them (`.L`, `_r`, `L_`, `Left`...).
 */
export function boneMirror(bones: string[], explicit?: Record<string, string>): Map<string, string> {
  const names = new Set(bones);
  const m = new Map<string, string>();
  if (explicit && Object.keys(explicit).length > 0) {
    for (const [a, b] of Object.entries(explicit)) {
      if (names.has(a) && names.has(b)) {
        m.set(a, b);
        m.set(b, a);
      }
    }
    return m;
  }
  for (const b of bones) {
    const other = sideSwapName(b);
    if (other !== undefined && other !== b && names.has(other)) {
      m.set(b, other);
      m.set(other, b);
    }
  }
  return m;
}

/**
 * Resolves creature.json's feet, mirror map and paint groups against a rig model. Feet that
 * name no keypoint are a {@link FileError} naming `feet[i]`.
 *
 * ```ts
 * const info = creatureInfo(model, creatureJson, 'creatures/wolf/creature.json');
 * ```
 */
export function creatureInfo(
  model: RigModel,
  creature: CreatureJson | null,
  file = 'creature.json',
): CreatureInfo {
  const kIndex = new Map(model.keypoints.map((k, i) => [k.name, i]));
  const feet = (creature?.feet ?? []).map((f, i) => {
    const j = kIndex.get(f);
    if (j === undefined) {
      throw new FileError(
        `solve: ${file}: feet[${i}]: "${f}" is not a joint of the rig.`,
        file,
        `feet[${i}]`,
      );
    }
    return j;
  });
  const mirror = boneMirror(model.bones, creature?.mirror);
  const byBoneEnd = new Map(model.keypoints.map((k, i) => [`${model.bones[k.bone]}|${k.end}`, i]));
  const partner = (j: number): number | undefined => {
    const k = model.keypoints[j]!;
    const other = mirror.get(model.bones[k.bone]!);
    return other === undefined ? undefined : byBoneEnd.get(`${other}|${k.end}`);
  };
  const pairs: [number, number][] = [];
  const seen = new Set<number>();
  model.keypoints.forEach((_, j) => {
    const p = partner(j);
    if (p === undefined || p === j || seen.has(j) || seen.has(p)) return;
    seen.add(j);
    seen.add(p);
    pairs.push([j, p]);
  });
  const groups: Record<string, number[]> = {};
  const inGroup = new Set<number>();
  const units: [number[], number[]][] = [];
  const covered = new Set<number>();
  const paint = creature?.paint ?? [];
  for (const g of paint) {
    const bones = new Set(g.bones);
    const ks = model.keypoints.flatMap((k, j) => (bones.has(model.bones[k.bone]!) ? [j] : []));
    groups[g.name] = ks;
    for (const j of ks) inGroup.add(j);
    const a: number[] = [];
    const b: number[] = [];
    for (const j of ks) {
      const p = partner(j);
      if (p !== undefined && !covered.has(j) && !covered.has(p)) {
        a.push(j);
        b.push(p);
      }
    }
    if (a.length > 0) {
      for (const j of [...a, ...b]) covered.add(j);
      units.push([a, b]);
    }
  }
  const rest = pairs.filter(([a, b]) => !covered.has(a) && !covered.has(b));
  if (rest.length > 0) units.push([rest.map((p) => p[0]), rest.map((p) => p[1])]);
  const body = model.keypoints.flatMap((_, j) => (inGroup.has(j) ? [] : [j]));
  if (body.length > 0) groups.body = body;
  return { feet, pairs, swapUnits: units, groups };
}

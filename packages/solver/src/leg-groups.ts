import type { CreatureInfo } from './creature-info.js';
import type { RigModel } from './rig-model.js';

/**
 * For each bone, the paint group of the feet below it (creature.json `feet`) when they all share
 * one, else null: the legs, as {@link syntheticMotion} and {@link gaitMotion} swing them. The root
 * is never a leg; a foot outside every paint group but `body` counts as its own group.
 *
 * ```ts
 * const leg = legGroups(model, info); // leg[model.bones.indexOf('fupper.L')] === 'front_left'
 * ```
 */
export function legGroups(model: RigModel, info: CreatureInfo): (string | null)[] {
  const groupOfKey = new Map<number, string>();
  for (const [g, ks] of Object.entries(info.groups))
    if (g !== 'body') for (const k of ks) groupOfKey.set(k, g);
  const sets: Set<string>[] = model.bones.map(() => new Set());
  for (const f of info.feet) {
    const g = groupOfKey.get(f) ?? `foot${f}`;
    for (let i = model.keypoints[f]!.bone; i >= 0; i = model.parent[i] as number) sets[i]!.add(g);
  }
  return sets.map((s, i) => (i > 0 && s.size === 1 ? ([...s][0] as string) : null));
}

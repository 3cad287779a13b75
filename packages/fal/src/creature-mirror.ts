import type { CreatureJson, MotionJson } from '@mocap/layout';
import type { MotionMirror } from './lora-set.js';

type MirrorMapFn = (boneNames: readonly string[], explicitMap?: Record<string, string>) => unknown;
type MirrorMotionFn = (motion: MotionJson, map: unknown) => MotionJson;

/**
 * The left/right mirror of a creature's motions: @mocap/anim-loop's `mirrorMap` over the
 * motion's bones (with creature.json's `mirror` pairs when given, so any creature works, not
 * only rigs with `.L`/`.R` names) and `mirrorMotion`. Rejects with a clear error when
 * anim-loop does not provide them.
 *
 * ```ts
 * const mirror = await creatureMirror(creature);
 * const flipped = mirror(motion);
 * ```
 */
export async function creatureMirror(creature: Pick<CreatureJson, 'mirror' | 'name'>): Promise<MotionMirror> {
  const al = (await import('@mocap/anim-loop')) as Record<string, unknown>;
  const mirrorMap = al.mirrorMap as MirrorMapFn | undefined;
  const mirrorMotion = al.mirrorMotion as MirrorMotionFn | undefined;
  if (typeof mirrorMap !== 'function' || typeof mirrorMotion !== 'function') {
    throw new Error(
      `lora: @mocap/anim-loop does not export mirrorMap and mirrorMotion yet, so the mirrored half of ${creature.name}'s training set cannot be built.`,
    );
  }
  const cache = new Map<string, unknown>();
  return (motion) => {
    const key = motion.bones.join('\n');
    let map = cache.get(key);
    if (map === undefined) {
      map = creature.mirror ? mirrorMap(motion.bones, creature.mirror) : mirrorMap(motion.bones);
      cache.set(key, map);
    }
    return mirrorMotion(motion, map);
  };
}

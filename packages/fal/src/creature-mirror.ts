import { type MirrorMap, mirrorMap, mirrorMotion } from '@mocap/anim-loop';
import type { CreatureJson } from '@mocap/layout';
import type { MotionMirror } from './lora-set.js';

/**
 * The left/right mirror of a creature's motions: @mocap/anim-loop's `mirrorMap` over each
 * motion's bones (with creature.json's `mirror` pairs when given, so any creature works, not
 * only rigs with `.L`/`.R` names) and `mirrorMotion`. A rig whose sided bone has no partner
 * throws anim-loop's error naming the bone.
 *
 * ```ts
 * const mirror = creatureMirror(creature);
 * const flipped = mirror(motion);
 * ```
 */
export function creatureMirror(creature: Pick<CreatureJson, 'mirror'>): MotionMirror {
  const cache = new Map<string, MirrorMap>();
  return (motion) => {
    const key = motion.bones.join('\n');
    let map = cache.get(key);
    if (map === undefined) {
      map = mirrorMap(motion.bones, creature.mirror);
      cache.set(key, map);
    }
    return mirrorMotion(motion, map);
  };
}

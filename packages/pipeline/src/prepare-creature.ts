import { existsSync } from 'node:fs';
import { type BlenderRunOptions, buildRig, prepMesh, renderRef } from '@mocap/blender-bridge';
import { creaturePaths } from '@mocap/layout';

/** A stage {@link prepareCreature} ran (`file`: what it read) or found done (`file`: its output). */
export interface PrepareEvent {
  stage: 'prep' | 'rig' | 'ref';
  done: boolean;
  file: string;
}

/**
 * Runs Blender's `prep`, `rig` and `ref` stages of a creature where their outputs are missing
 * (static.blend; rigged.blend + rig_info.json; ref.png), in order, so a capture can follow.
 *
 * ```ts
 * await prepareCreature('creatures/wolf', {}, (e) => console.log(e.stage, e.done));
 * ```
 */
export async function prepareCreature(
  creature: string,
  blender: BlenderRunOptions = {},
  onEvent: (e: PrepareEvent) => void = () => {},
): Promise<void> {
  const p = creaturePaths(creature);
  if (existsSync(p.staticBlend)) onEvent({ stage: 'prep', done: true, file: p.staticBlend });
  else {
    onEvent({ stage: 'prep', done: false, file: p.model });
    await prepMesh({ creature, ...blender });
  }
  if (existsSync(p.rigInfo) && existsSync(p.riggedBlend))
    onEvent({ stage: 'rig', done: true, file: p.rigInfo });
  else {
    // Without rig.json the rig comes from model.glb's skin.
    onEvent({ stage: 'rig', done: false, file: existsSync(p.rigJson) ? p.rigJson : p.model });
    await buildRig({ creature, ...blender });
  }
  if (existsSync(p.refPng)) onEvent({ stage: 'ref', done: true, file: p.refPng });
  else {
    onEvent({ stage: 'ref', done: false, file: p.riggedBlend });
    await renderRef({ creature, ...blender });
  }
}

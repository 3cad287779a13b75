import path from 'node:path';

/** Where a creature's inputs live and where each Blender stage writes (outputs under `runs/`). */
export interface CreaturePaths {
  dir: string;
  creatureJson: string;
  rigJson: string;
  model: string;
  runs: string;
  /** prep_mesh's output. */
  staticBlend: string;
  /** build_rig's outputs. */
  riggedBlend: string;
  rigInfo: string;
  /** render_ref's output. */
  refPng: string;
  /** render_dataset's folder. */
  dataset: string;
  /** apply_motion's folder (one sub-folder per motion). */
  apply: string;
}

/**
 * The files of the creature in `dir`: `creature.json`, `rig.json`, `model.glb` and, under
 * `runs` (default `<dir>/runs`), `prep/static.blend`, `rigged/rigged.blend`,
 * `rigged/rig_info.json`, `ref/ref.png`, `dataset/`, `apply/`.
 *
 * ```ts
 * creaturePaths('creatures/wolf').rigInfo; // creatures/wolf/runs/rigged/rig_info.json
 * ```
 */
export function creaturePaths(dir: string, runs: string = path.join(dir, 'runs')): CreaturePaths {
  return {
    dir,
    creatureJson: path.join(dir, 'creature.json'),
    rigJson: path.join(dir, 'rig.json'),
    model: path.join(dir, 'model.glb'),
    runs,
    staticBlend: path.join(runs, 'prep', 'static.blend'),
    riggedBlend: path.join(runs, 'rigged', 'rigged.blend'),
    rigInfo: path.join(runs, 'rigged', 'rig_info.json'),
    refPng: path.join(runs, 'ref', 'ref.png'),
    dataset: path.join(runs, 'dataset'),
    apply: path.join(runs, 'apply'),
  };
}

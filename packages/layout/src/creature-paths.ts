import path from 'node:path';

/** Where a creature's inputs live and where each stage writes (outputs under `runs/`). */
export interface CreaturePaths {
  dir: string;
  creatureJson: string;
  rigJson: string;
  model: string;
  /** The reader weights shipped with the creature (`<dir>/reader`). */
  shippedReader: string;
  /** `mocap prompt`'s folder (`<dir>/prompts`). */
  prompts: string;
  runs: string;
  /** prep_mesh's output. */
  staticBlend: string;
  /** build_rig's outputs. */
  riggedBlend: string;
  rigInfo: string;
  /** The rigged creature as a glTF, exported from rigged.blend for the refinement. */
  riggedGlb: string;
  /** `mocap rig --propose`'s folder (rig.proposed.json, proposal.json, proposal.png). */
  propose: string;
  /** render_ref's output. */
  refPng: string;
  /** render_dataset's folder. */
  dataset: string;
  /** `mocap train`'s folder (a trained reader). */
  reader: string;
  /** apply_motion's folder (one sub-folder per motion). */
  apply: string;
  /** `mocap capture`'s folder (one sub-folder per clip). */
  capture: string;
  /** `mocap exam --render`'s folder (one sub-folder per seed). */
  exam: string;
  /** `mocap generate`'s folder (`<move>/s<seed>/<model>.mp4`). */
  videos: string;
  /** `mocap lora`'s folder. */
  lora: string;
}

/**
 * The files of the creature in `dir`: `creature.json`, `rig.json`, `model.glb`, the shipped
 * `reader/` and, under `runs` (default `<dir>/runs`), `prep/static.blend`, `rigged/rigged.blend`,
 * `rigged/rig_info.json`, `rigged/rigged.glb`, `propose/`, `ref/ref.png`, `dataset/`, `reader/`, `apply/`,
 * `capture/`, `exam/`, `videos/`, `lora/`. Every stage and command builds its paths here.
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
    shippedReader: path.join(dir, 'reader'),
    prompts: path.join(dir, 'prompts'),
    runs,
    staticBlend: path.join(runs, 'prep', 'static.blend'),
    riggedBlend: path.join(runs, 'rigged', 'rigged.blend'),
    rigInfo: path.join(runs, 'rigged', 'rig_info.json'),
    riggedGlb: path.join(runs, 'rigged', 'rigged.glb'),
    propose: path.join(runs, 'propose'),
    refPng: path.join(runs, 'ref', 'ref.png'),
    dataset: path.join(runs, 'dataset'),
    reader: path.join(runs, 'reader'),
    apply: path.join(runs, 'apply'),
    capture: path.join(runs, 'capture'),
    exam: path.join(runs, 'exam'),
    videos: path.join(runs, 'videos'),
    lora: path.join(runs, 'lora'),
  };
}

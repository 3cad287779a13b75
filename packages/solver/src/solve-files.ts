import path from 'node:path';
import { creaturePaths, type MotionJson } from '@mocap/layout';
import { creatureInfo } from './creature-info.js';
import type { FitOptions } from './fit.js';
import { readRigModel } from './read-rig-model.js';
import { readSolverCreature } from './read-solver-creature.js';
import { solveDetections } from './solve-detections.js';

/** Options of {@link solveFiles}. */
export interface SolveFilesOptions extends Omit<FitOptions, 'layout' | 'creature' | 'file'> {
  det: string;
  rig: string;
  out: string;
  creature?: string | undefined;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/**
 * The `solve` stage on files: det.npz + rig (rig_info.json or rig.json) + creature ->
 * motion.json, validated and written atomically. det.npz's `front_uv` / `side_uv` are layout
 * px, as `mocap detect` writes them; its `calib` is informational (how the clip was mapped
 * onto the layout) and is not applied again.
 *
 * ```ts
 * const motion = await solveFiles({ det: 'runs/det.npz', rig: 'creatures/wolf/rig.json', creature: 'creatures/wolf', out: 'runs/motion.json' });
 * ```
 */
export async function solveFiles(options: SolveFilesOptions): Promise<MotionJson> {
  const { det, rig, out, creature: dir, env, cwd: at, ...fitOptions } = options;
  const cwd = at ?? process.cwd();
  const creature = await readSolverCreature('solve', dir, env, cwd);
  const model = await readRigModel('solve', path.resolve(cwd, rig));
  const info = creatureInfo(
    model,
    creature.json,
    creature.dir ? creaturePaths(creature.dir).creatureJson : 'creature.json',
  );
  const ctx = { creature, model, info };
  return (await solveDetections(ctx, path.resolve(cwd, det), path.resolve(cwd, out), fitOptions)).motion;
}

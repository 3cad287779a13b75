import path from 'node:path';
import { creaturePaths } from '@mocap/layout';
import { type CreatureInfo, creatureInfo } from './creature-info.js';
import { creatureRigFile } from './creature-rig-file.js';
import { readRigModel } from './read-rig-model.js';
import { readSolverCreature, type SolverCreature } from './read-solver-creature.js';
import type { RigModel } from './rig-model.js';

/** A creature ready for the solver: resolved, its rig model (rig_info.json when rigged) and info. */
export interface SolveContext {
  creature: SolverCreature;
  model: RigModel;
  info: CreatureInfo;
}

/**
 * Reads what {@link solveDetections} needs of the creature in `dir` (or `MOCAP_CREATURE`): its
 * creature.json and layout, its rig model from {@link creatureRigFile} and its solver info.
 *
 * ```ts
 * const ctx = await solveContext('capture', 'creatures/wolf');
 * ```
 */
export async function solveContext(
  op: string,
  dir: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<SolveContext> {
  const creature = await readSolverCreature(op, dir, env, cwd);
  const folder = creature.dir ?? (dir === undefined ? undefined : path.resolve(cwd, dir));
  if (folder === undefined)
    throw new TypeError(`${op}: expected --creature DIR (or MOCAP_CREATURE), got neither.`);
  const p = creaturePaths(folder);
  const model = await readRigModel(op, creatureRigFile(folder));
  return { creature, model, info: creatureInfo(model, creature.json, p.creatureJson) };
}

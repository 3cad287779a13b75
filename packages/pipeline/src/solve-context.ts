import { existsSync } from 'node:fs';
import { creaturePaths } from '@mocap/layout';
import {
  type CreatureInfo,
  creatureInfo,
  type RigModel,
  readRigModel,
  readSolverCreature,
  type SolverCreature,
} from '@mocap/solver';

/** A creature ready for the solver: resolved, its rig model (rig_info.json when rigged) and info. */
export interface SolveContext {
  creature: SolverCreature;
  model: RigModel;
  info: CreatureInfo;
}

/** Reads what {@link solveDetections} needs of the creature in `dir`. */
export async function solveContext(op: string, dir: string): Promise<SolveContext> {
  const creature = await readSolverCreature(op, dir);
  const p = creaturePaths(creature.dir ?? dir);
  const model = await readRigModel(op, existsSync(p.rigInfo) ? p.rigInfo : p.rigJson);
  return { creature, model, info: creatureInfo(model, creature.json, p.creatureJson) };
}

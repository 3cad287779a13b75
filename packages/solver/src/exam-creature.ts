import type { ExamReport } from '@mocap/layout';
import { creatureInfo } from './creature-info.js';
import { creatureRigFile } from './creature-rig-file.js';
import { type ExamOptions, syntheticExam } from './exam.js';
import { readRigModel } from './read-rig-model.js';
import { readSolverCreature } from './read-solver-creature.js';

/**
 * The synthetic exam of a creature directory, on the rig {@link creatureRigFile} names: its
 * `runs/rigged/rig_info.json` when `mocap rig` has written one, else its `rig.json`.
 *
 * ```ts
 * const report = await examCreature('creatures/wolf', { frames: 60, seed: 1 });
 * ```
 */
export async function examCreature(
  creature: string | undefined,
  options: ExamOptions,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<ExamReport> {
  const c = await readSolverCreature('exam', creature, env, cwd);
  if (!c.dir) throw new TypeError('exam: expected --creature DIR (or MOCAP_CREATURE), got neither.');
  const model = await readRigModel('exam', creatureRigFile(c.dir));
  return syntheticExam(model, c.name, c.layout, creatureInfo(model, c.json), options).report;
}

import type { ExamReport } from '@mocap/layout';
import { clipMotion } from './clip-motion.js';
import { creatureInfo } from './creature-info.js';
import { creatureRigFile } from './creature-rig-file.js';
import { type ExamOptions, syntheticExam } from './exam.js';
import { readMotionClip } from './read-motion-clip.js';
import { readRigModel } from './read-rig-model.js';
import { readSolverCreature } from './read-solver-creature.js';

/**
 * The synthetic exam of a creature directory, on the rig {@link creatureRigFile} names: its
 * `runs/rigged/rig_info.json` when `mocap rig` has written one, else its `rig.json`. With
 * `motion` (`file.glb#Animation` or `file.bvh`) and no `truth`, the truth is that clip on the
 * creature's rig ({@link clipMotion}: looped to `frames`, at `fps`, grounded).
 *
 * ```ts
 * const report = await examCreature('creatures/wolf', { frames: 60, seed: 1 });
 * const walk = await examCreature('creatures/fox-rigged', { frames: 120, seed: 1, motion: 'creatures/fox-rigged/model.glb#Walk' });
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
  const info = creatureInfo(model, c.json);
  const truth =
    options.truth ??
    (options.motion !== undefined
      ? clipMotion(model, info, await readMotionClip(options.motion, 'exam'), options, 'exam').motion
      : undefined);
  return syntheticExam(model, c.name, c.layout, info, { ...options, truth }).report;
}

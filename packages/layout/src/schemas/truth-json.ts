import { z } from 'zod';
import { Vec3 } from './common.js';

/**
 * `truth.json` of a rendered exam (`runs/exam/render-seed<N>/`): what was rendered (seed, frames,
 * fps) and the joints Blender posed for each frame, so a later exam of the same motion can read
 * the clip again instead of rendering it.
 *
 * ```ts
 * const truth = await readJsonFile('exam', 'runs/exam/render-seed1/truth.json', TruthJson);
 * ```
 */
export const TruthJson = z.object({
  seed: z.number().int(),
  frames: z.number().int().positive(),
  fps: z.number().positive(),
  /** The clip rendered (`file.glb#Animation`, `file.bvh`); absent for the seeded gait. */
  motion: z.string().optional(),
  /** T x K x 3 world metres, motion.json `names` order. */
  joints: z.array(z.array(Vec3)),
});
/** A validated truth.json. */
export type TruthJson = z.output<typeof TruthJson>;

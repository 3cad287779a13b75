import { Name, Vec3 } from '@mocap/layout';
import { z } from 'zod';

/**
 * `joints.json`: the joint positions Blender computes for a keyed motion (apply_motion), world
 * metres, `joints[t][j]` for `names[j]` at frame t.
 */
export const JointsJson = z
  .object({
    fps: z.number().positive(),
    names: z.array(Name).min(1),
    joints: z.array(z.array(Vec3)).min(1),
  })
  .strict()
  .superRefine((j, ctx) => {
    j.joints.forEach((row, t) => {
      if (row.length !== j.names.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['joints', t],
          message: `has ${row.length} joints, names has ${j.names.length}`,
        });
      }
    });
  });
/** A validated joints.json. */
export type JointsJson = z.output<typeof JointsJson>;

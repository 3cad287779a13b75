import { z } from 'zod';
import { Name, QuatWxyz, Vec2, Vec3 } from './common.js';

/**
 * `dataset/<i>_meta.json`: the truth of one rendered two-view sample. Pose fields follow
 * motion.json's conventions (see {@link MotionJson}).
 */
export const DatasetMeta = z
  .object({
    index: z.number().int().min(0),
    seed: z.number().int(),
    /** Joint names, the order of every per-joint array. */
    names: z.array(Name).min(1),
    /** True joints, world metres. */
    joints_m: z.array(Vec3),
    /** True joints in the front view, layout px. */
    front_uv: z.array(Vec2),
    /** True joints in the side view, layout px (full-frame columns). */
    side_uv: z.array(Vec2),
    /** Whether each joint is unoccluded by the creature's own mesh, per view (when measured). */
    visible: z
      .object({ front: z.array(z.boolean()), side: z.array(z.boolean()) })
      .strict()
      .optional(),
    /** The pose: per-bone Euler XYZ radians, root translation and rotation. */
    pose: z
      .object({
        euler: z.record(Name, Vec3),
        trans: Vec3,
        root_quat: QuatWxyz,
      })
      .strict(),
    /** The two view images, relative to the meta file. */
    images: z.object({ front: z.string(), side: z.string() }).strict(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const n = m.names.length;
    for (const key of ['joints_m', 'front_uv', 'side_uv'] as const) {
      if (m[key].length !== n)
        ctx.addIssue({ code: 'custom', path: [key], message: `has ${m[key].length} joints, names has ${n}` });
    }
  });
/** A validated dataset sample's meta. */
export type DatasetMeta = z.output<typeof DatasetMeta>;

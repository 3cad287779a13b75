import { z } from 'zod';
import { Finite, LimitsDeg, Mat4Rows, Name, Vec3 } from './common.js';

/** One bone as build_rig reads it back from Blender. */
export const RigInfoBone = z
  .object({
    name: Name,
    parent: Name.nullable(),
    /** Armature-space head and tail, metres. */
    head: Vec3,
    tail: Vec3,
    /** Edit-bone roll, radians. */
    roll: Finite,
    length: z.number().positive(),
    /** Blender's `bone.matrix_local` (armature space), as rows. */
    matrix_local: Mat4Rows,
    limits_deg: LimitsDeg,
  })
  .strict();
/** One validated rig_info.json bone. */
export type RigInfoBone = z.output<typeof RigInfoBone>;

/** Which bone end a joint (keypoint) is. */
export const Keypoint = z.object({ name: Name, bone: Name, end: z.enum(['head', 'tail']) }).strict();
/** One validated keypoint. */
export type Keypoint = z.output<typeof Keypoint>;

/**
 * `rig_info.json`: what the solver needs of a rig, written by build_rig (or derived from
 * rig.json). Bones are listed parents first.
 */
export const RigInfo = z
  .object({
    armature: Name.default('Armature'),
    root: Name,
    bones: z.array(RigInfoBone).min(1),
    keypoints: z.array(Keypoint).min(1),
    /** How the mesh was skinned (`heat`, or the fallback used), when a mesh was. */
    weights: z.string().optional(),
  })
  .strict()
  .superRefine((info, ctx) => {
    const names = new Set<string>();
    info.bones.forEach((b, i) => {
      if (names.has(b.name))
        ctx.addIssue({ code: 'custom', path: ['bones', i, 'name'], message: 'duplicate bone' });
      if (b.parent !== null && !names.has(b.parent)) {
        ctx.addIssue({
          code: 'custom',
          path: ['bones', i, 'parent'],
          message: `"${b.parent}" is not a bone listed before it`,
        });
      }
      names.add(b.name);
    });
    if (!names.has(info.root))
      ctx.addIssue({ code: 'custom', path: ['root'], message: `"${info.root}" is not a bone` });
    info.keypoints.forEach((k, i) => {
      if (!names.has(k.bone))
        ctx.addIssue({
          code: 'custom',
          path: ['keypoints', i, 'bone'],
          message: `"${k.bone}" is not a bone`,
        });
    });
  });
/** A validated rig_info.json. */
export type RigInfo = z.output<typeof RigInfo>;

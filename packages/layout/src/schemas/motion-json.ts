import { z } from 'zod';
import { Finite, Name, QuatWxyz, Vec3 } from './common.js';

/** The clip checks run before a fit (the seed's `sync`). */
export const SyncReport = z
  .object({
    /** Fraction of frames where the feet agree between the views' rows (0..1); null without feet. */
    paw_agreement: z.number().min(0).max(1).nullable(),
    /** Median |v_front - v_side| over confident joints before any warp, px. */
    height_gap_px: z.number().min(0),
    /** Best lag of the front view against the side view, frames (positive: front is late). */
    lag_frames: Finite,
    /** Whether the front view was time-warped onto the side view. */
    warped: z.boolean(),
    /** Median height gap after the warp (equal to `height_gap_px` when not warped), px. */
    height_gap_after_px: z.number().min(0),
    /** Left/right label swaps undone, per view (frame counts). */
    swaps_fixed: z.object({ front: z.number().int().min(0), side: z.number().int().min(0) }).strict(),
  })
  .strict();
/** A validated `sync` block. */
export type SyncReport = z.output<typeof SyncReport>;

/**
 * The `sync` block of a clip the checks did not run on (a fit with `sync: false`, a motion that
 * did not come from detections): no feet compared, no gap, lag, warp or swap. A new object each
 * call.
 *
 * ```ts
 * const motion = { ...fields, sync: emptySyncReport() };
 * ```
 */
export function emptySyncReport(): SyncReport {
  return {
    paw_agreement: null,
    height_gap_px: 0,
    lag_frames: 0,
    warped: false,
    height_gap_after_px: 0,
    swaps_fixed: { front: 0, side: 0 },
  };
}

/** Reprojection error of the fitted joints against the detections, px. */
export const ReprojReport = z
  .object({
    /** Confidence-weighted mean over both views. */
    mean: z.number().min(0),
    front: z.number().min(0),
    side: z.number().min(0),
    /** Per-frame mean over both views (T values). */
    per_frame: z.array(z.number().min(0)),
  })
  .strict();
/** A validated `reproj_px` block. */
export type ReprojReport = z.output<typeof ReprojReport>;

/**
 * `motion.json`: a fitted motion (the seed's fields). Conventions, shared by the solver and
 * Blender's apply_motion:
 * - `euler[t][b]` is bone b's pose rotation in Blender's `XYZ` mode (R = Rz * Ry * Rx), radians,
 *   relative to its rest pose in its own bone space (`pose_bone.rotation_euler`); the root
 *   bone's entry is zero, its rotation is `root_quat`.
 * - `root_quat[t]` (W, X, Y, Z) rotates the root bone about its rest head in armature space:
 *   posed root orientation = R(root_quat) * rest orientation.
 * - `trans[t]` is the root head's displacement from its rest position, armature space, metres.
 * - `joints[t][j]` are the fitted joints (`names[j]`), world metres.
 */
export const MotionJson = z
  .object({
    fps: z.number().positive(),
    /** Every bone of the rig, parents first; `euler`'s second axis. */
    bones: z.array(Name).min(1),
    /** Joint (keypoint) names; `joints`' second axis. */
    names: z.array(Name).min(1),
    trans: z.array(Vec3).min(1),
    root_quat: z.array(QuatWxyz).min(1),
    euler: z.array(z.array(Vec3)).min(1),
    joints: z.array(z.array(Vec3)).min(1),
    reproj_px: ReprojReport,
    sync: SyncReport,
    /**
     * Present when the fit found the clip's frames picked unevenly from a faster source and fitted
     * on its time grid: the source's rate and the source frame of each frame (T, from 0).
     */
    frame_timing: z
      .object({ source_fps: z.number().positive(), source_frames: z.array(z.number().int().min(0)) })
      .strict()
      .optional(),
    /** How the fit went: seconds, iterations, the optimiser. */
    fit: z
      .object({ seconds: z.number().min(0), iterations: z.number().int().min(0), method: z.string() })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const t = m.trans.length;
    const check = (key: 'root_quat' | 'euler' | 'joints' | 'frame_timing', n: number) => {
      if (n !== t) ctx.addIssue({ code: 'custom', path: [key], message: `has ${n} frames, trans has ${t}` });
    };
    check('root_quat', m.root_quat.length);
    check('euler', m.euler.length);
    check('joints', m.joints.length);
    if (m.frame_timing) check('frame_timing', m.frame_timing.source_frames.length);
    m.euler.forEach((row, i) => {
      if (row.length !== m.bones.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['euler', i],
          message: `has ${row.length} bones, bones has ${m.bones.length}`,
        });
      }
    });
    m.joints.forEach((row, i) => {
      if (row.length !== m.names.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['joints', i],
          message: `has ${row.length} joints, names has ${m.names.length}`,
        });
      }
    });
  });
/** A validated motion.json. */
export type MotionJson = z.output<typeof MotionJson>;

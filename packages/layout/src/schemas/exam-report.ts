import { z } from 'zod';
import { Name } from './common.js';

/** Error statistics over a set of joint errors, cm. */
export const ErrorStats = z
  .object({
    mean: z.number().min(0),
    median: z.number().min(0),
    p95: z.number().min(0),
    max: z.number().min(0),
  })
  .strict();
/** Error statistics, cm. */
export type ErrorStats = z.output<typeof ErrorStats>;

/**
 * The exam's report: a known motion through the chain, scored as 3D joint error in cm, overall,
 * per creature.json paint group and per joint.
 */
export const ExamReport = z
  .object({
    creature: Name,
    /** `synthetic` (projected truth, no renderer) or `render` (Blender clip through the reader). */
    mode: z.enum(['synthetic', 'render']),
    /** The clip that was the truth (`file.glb#Animation`, `file.bvh`); absent for a seeded random motion. */
    motion: z.string().optional(),
    frames: z.number().int().min(2),
    seed: z.number().int(),
    noise_px: z.number().min(0),
    outliers: z.number().min(0).max(1),
    swaps: z.number().min(0).max(1),
    lag_frames: z.number().default(0),
    error_cm: ErrorStats,
    per_group: z.record(Name, ErrorStats),
    per_joint: z.record(Name, ErrorStats),
    fit_seconds: z.number().min(0),
  })
  .strict();
/** A validated exam report. */
export type ExamReport = z.output<typeof ExamReport>;

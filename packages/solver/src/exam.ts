import type { ExamReport, Layout } from '@mocap/layout';
import type { CreatureInfo } from './creature-info.js';
import { type FitOptions, fit } from './fit.js';
import type { FlatMotion } from './flat-motion.js';
import type { RigModel } from './rig-model.js';
import { scoreJoints } from './score.js';
import { type CorruptionOptions, syntheticDetections } from './synthetic-detections.js';
import { syntheticMotion } from './synthetic-motion.js';

/** Options of {@link syntheticExam}. */
export interface ExamOptions extends Omit<CorruptionOptions, 'seed'> {
  frames: number;
  seed: number;
  /** @default 30 */
  fps?: number;
  /** Options passed to the fit. */
  fit?: Omit<FitOptions, 'layout' | 'creature'>;
  /**
   * The truth to score on instead of a seeded random motion (e.g. `clipMotion`'s, of a real
   * clip); its frames and fps must be `frames` and `fps`. @default syntheticMotion of `seed`
   */
  truth?: FlatMotion | undefined;
  /** What `truth` is, for the report (`Fox.glb#Walk`). */
  motion?: string | undefined;
}

/** The exam's report plus the truth and the fitted motion, for callers that want more. */
export interface ExamResult {
  report: ExamReport;
  truth: FlatMotion;
  fitted: Float64Array;
  /** The detection noise the fit measured, px. */
  noisePx: number;
  /** Seconds per fit stage. */
  stages: Record<string, number>;
}

/**
 * The synthetic exam, no renderer: a seeded random motion within the rig's limits (or the
 * `truth` given, such as a real clip's `clipMotion`), its true joints projected to both views through the
 * layout, corrupted as asked, fitted, and scored as
 * per-joint 3D error in cm (overall, per paint group, per joint) with the fit's time.
 *
 * ```ts
 * const { report } = syntheticExam(model, 'wolf', layout, info, { frames: 120, seed: 1, noisePx: 2, outliers: 0.05 });
 * report.error_cm.mean;
 * ```
 */
export function syntheticExam(
  model: RigModel,
  creature: string,
  layout: Layout,
  info: CreatureInfo,
  options: ExamOptions,
): ExamResult {
  const fps = options.fps ?? 30;
  const truth =
    options.truth ?? syntheticMotion(model, info, { frames: options.frames, seed: options.seed, fps });
  if (truth.frames !== options.frames || truth.fps !== fps) {
    throw new RangeError(
      `exam: the truth has ${truth.frames} frames at ${truth.fps} fps; expected ${options.frames} at ${fps}.`,
    );
  }
  const names = model.keypoints.map((k) => k.name);
  const det = syntheticDetections(truth.joints, names, fps, layout, info, {
    noisePx: options.noisePx ?? 0,
    outliers: options.outliers ?? 0,
    swaps: options.swaps ?? 0,
    lagFrames: options.lagFrames ?? 0,
    seed: options.seed,
  });
  const result = fit(model, det, { ...options.fit, layout, creature: info, file: 'synthetic' });
  // With a lag the fit follows the side view's timing; score against the truth there.
  const score = scoreJoints(result.joints, truth.joints, names, info.groups);
  const report: ExamReport = {
    creature,
    mode: 'synthetic',
    ...(options.motion !== undefined ? { motion: options.motion } : {}),
    frames: options.frames,
    seed: options.seed,
    noise_px: options.noisePx ?? 0,
    outliers: options.outliers ?? 0,
    swaps: options.swaps ?? 0,
    lag_frames: options.lagFrames ?? 0,
    ...score,
    fit_seconds: result.seconds,
  };
  return { report, truth, fitted: result.joints, noisePx: result.noisePx, stages: result.stages };
}

import { atomicWriteJson, type MotionJson, readDetections } from '@mocap/layout';
import { type FitOptions, fit } from './fit.js';
import type { FrameTiming } from './frame-timing.js';
import type { SolveContext } from './solve-context.js';

/** What {@link solveDetections} returns: motion.json's content, the fitted joints and the fit time. */
export interface SolveDetectionsResult {
  motion: MotionJson;
  /** T x K x 3 world metres, flat. */
  joints: Float64Array;
  seconds: number;
  /** The uneven timing the fit found in the clip's frames and fitted on, or null (see `FitOptions.frameTiming`). */
  timing: FrameTiming | null;
}

/**
 * The solve stage on files: det.npz -> motion.json (validated, written atomically) for a
 * creature read by {@link solveContext}; `options` adds fit settings. det.npz's `front_uv` /
 * `side_uv` are layout px, as `mocap detect` writes them; its `calib` is informational (how the
 * clip was mapped onto the layout) and is not applied again.
 *
 * ```ts
 * const { motion } = await solveDetections(await solveContext('solve', 'creatures/wolf'), 'det.npz', 'motion.json');
 * ```
 */
export async function solveDetections(
  ctx: SolveContext,
  det: string,
  out: string,
  options: Omit<FitOptions, 'layout' | 'creature' | 'file'> = {},
): Promise<SolveDetectionsResult> {
  const detections = await readDetections(det);
  const r = fit(ctx.model, detections, {
    ...options,
    layout: ctx.creature.layout,
    creature: ctx.info,
    file: det,
  });
  await atomicWriteJson(out, r.motion);
  return { motion: r.motion, joints: r.joints, seconds: r.seconds, timing: r.timing };
}

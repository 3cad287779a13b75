import { atomicWriteJson, type MotionJson, readDetections } from '@mocap/layout';
import { type FitOptions, fit } from '@mocap/solver';
import type { SolveContext } from './solve-context.js';

/**
 * The solve stage: det.npz -> motion.json (atomic), with the fitted joints (T x K x 3 flat) and
 * time; `options` adds fit settings (e.g. {@link REFINED_FIT}).
 */
export async function solveDetections(
  ctx: SolveContext,
  det: string,
  out: string,
  options: Omit<FitOptions, 'layout' | 'creature' | 'file'> = {},
): Promise<{ motion: MotionJson; joints: Float64Array; seconds: number }> {
  // det.npz uv are layout px; the fit takes them as they are (`calib` is informational).
  const detections = await readDetections(det);
  const r = fit(ctx.model, detections, {
    ...options,
    layout: ctx.creature.layout,
    creature: ctx.info,
    file: det,
  });
  await atomicWriteJson(out, r.motion);
  return { motion: r.motion, joints: r.joints, seconds: r.seconds };
}

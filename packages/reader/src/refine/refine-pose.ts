import { z } from 'zod';
import type { ChamferObjective } from './chamfer-objective.js';
import type { KeypointTargets } from './keypoint-targets.js';
import type { ObservedViews } from './observed-views.js';
import { applyPoseStep, cloneRefinePose, copyRefinePose, type RefinePose } from './refine-pose-state.js';

/** Options of {@link refinePose}; defaults in the schema. */
export const RefineOptions = z
  .object({
    /** Levenberg-Marquardt iterations per level, coarse to fine (one entry per level). @default [8, 6, 4] */
    iterations: z.array(z.number().int().min(0)).default([8, 6, 4]),
    /** Initial damping (relative to the diagonal). @default 1e-3 */
    lambda: z.number().positive().default(1e-3),
    /** Absolute damping added to every parameter (keeps joints no term sees still). @default 1 */
    ridge: z.number().min(0).default(1),
    /** Tries per iteration before giving up on a step. @default 6 */
    tries: z.number().int().min(1).default(6),
  })
  .strict();
/** Options of {@link refinePose} as passed in. */
export type RefineOptions = z.input<typeof RefineOptions>;

/**
 * What {@link refinePose} did per level: the cost before (at the start, fresh correspondences)
 * and after (at the last accepted step, with the correspondences that step was judged on), and
 * the steps taken.
 */
export interface RefineReport {
  levels: { factor: number; before: number; after: number; steps: number }[];
}

/**
 * Refines a pose against observed masks, coarse to fine: at each level (`levels`, e.g. factors
 * 4, 2, 1 from {@link observeLabels}) it runs Levenberg-Marquardt on the {@link ChamferObjective}:
 * rasterise for visibility and correspondences, build the normal equations, solve
 * `(H + lambda diag(H) + ridge I) delta = -g`, keep the step if the cost (same correspondences)
 * drops. `state` is updated in place and returned with a report.
 *
 * ```ts
 * const levels = [4, 2, 1].map((f) => observeLabels(labels, layout, groups, f));
 * refinePose(objective, state, levels, peaks);
 * ```
 */
export function refinePose(
  objective: ChamferObjective,
  state: RefinePose,
  levels: readonly ObservedViews[],
  keypoints: KeypointTargets | null = null,
  options: RefineOptions = {},
): { state: RefinePose; report: RefineReport } {
  const o = RefineOptions.parse(options);
  const P = objective.params;
  const h = new Float64Array(P * P);
  const g = new Float64Array(P);
  const a = new Float64Array(P * P);
  const delta = new Float64Array(P);
  const trial = cloneRefinePose(state);
  const report: RefineReport = { levels: [] };
  levels.forEach((obs, li) => {
    const iters = o.iterations[Math.min(li, o.iterations.length - 1)];
    let lambda = o.lambda;
    let steps = 0;
    let before = Number.NaN;
    let cost = Number.NaN;
    for (let it = 0; it < iters; it++) {
      cost = objective.evaluate(state, obs, keypoints, false, h, g);
      if (it === 0) before = cost;
      let accepted = false;
      for (let t = 0; t < o.tries && !accepted; t++) {
        for (let i = 0; i < P * P; i++) a[i] = h[i];
        for (let i = 0; i < P; i++) a[i * P + i] += lambda * h[i * P + i] + o.ridge;
        for (let i = 0; i < P; i++) delta[i] = -g[i];
        if (!choleskySolve(a, delta, P)) {
          lambda *= 10;
          continue;
        }
        applyPoseStep(trial, state, objective.joints, delta);
        const next = objective.evaluate(trial, obs, keypoints, true);
        if (next < cost) {
          copyRefinePose(state, trial);
          cost = next;
          lambda = Math.max(lambda / 3, 1e-7);
          accepted = true;
          steps++;
        } else {
          lambda *= 4;
        }
      }
      if (!accepted) break;
    }
    if (Number.isNaN(before)) before = cost = objective.evaluate(state, obs, keypoints, false);
    // `after` is the cost the last step was accepted at (that iteration's correspondences): a
    // fresh evaluation would rasterise once more per level and frame only to report it
    report.levels.push({ factor: obs.factor, before, after: cost, steps });
  });
  return { state, report };
}

/** Solves `a x = b` in place (`b` becomes x) for a symmetric positive definite `a` (n x n, overwritten). */
export function choleskySolve(a: Float64Array, b: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0)) return false;
    d = Math.sqrt(d);
    a[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= a[i * n + k] * b[k];
    b[i] = s / a[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= a[k * n + i] * b[k];
    b[i] = s / a[i * n + i];
  }
  return true;
}

import type { ChamferObjective } from './chamfer-objective.js';
import type { KeypointTargets } from './keypoint-targets.js';
import type { ObservedViews } from './observed-views.js';
import { type RefineReport, refinePose } from './refine-pose.js';
import { cloneRefinePose, copyRefinePose, type RefinePose } from './refine-pose-state.js';

/**
 * Fits a clip's first frame from its start pose two ways and keeps the better: with the clip's
 * `objective` alone, and after a first pass of `paintObjective` (the paint channels weighted up)
 * then the clip's objective; the second is kept only where its cost under the clip's objective
 * (finest level, the same peaks and prior) is lower by more than `margin` of the first's (a
 * near tie is two fits of the same frame, and then the plain one, nearer its prior, stays). A clip that starts mid-stride has a limb far from the
 * rest pose, where the clip's light paint weight and strong prior leave it on another limb's
 * place; the paint pass pulls it onto its own colour. Both objectives' priors are set to `prior`
 * (copied before the fits: it may be `state` itself). Writes `state` and returns the kept fit's
 * report.
 *
 * ```ts
 * const report = fitFirstFrame(objective, paintObjective, state, levels, peaks, [12], state);
 * ```
 */
export function fitFirstFrame(
  objective: ChamferObjective,
  paintObjective: ChamferObjective,
  state: RefinePose,
  levels: readonly ObservedViews[],
  peaks: KeypointTargets | null,
  iterations: number[],
  prior: RefinePose | null,
  margin = 0.02,
): RefineReport {
  const alt = cloneRefinePose(state);
  objective.setPrior(prior);
  paintObjective.setPrior(prior);
  const plain = refinePose(objective, state, levels, peaks, { iterations }).report;
  refinePose(paintObjective, alt, levels, peaks, { iterations });
  const painted = refinePose(objective, alt, levels, peaks, { iterations }).report;
  const fine = levels[levels.length - 1]!;
  const cost = (p: RefinePose) => objective.evaluate(p, fine, peaks, false);
  if (cost(alt) < (1 - margin) * cost(state)) {
    copyRefinePose(state, alt);
    return painted;
  }
  return plain;
}

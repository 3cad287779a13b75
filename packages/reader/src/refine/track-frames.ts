import type { Layout } from '@mocap/layout';
import { z } from 'zod';
import type { ChamferObjective } from './chamfer-objective.js';
import type { KeypointTargets } from './keypoint-targets.js';
import { type ObservedViews, observeLabels } from './observed-views.js';
import { type RefineReport, refinePose } from './refine-pose.js';
import { cloneRefinePose, type RefinePose } from './refine-pose-state.js';

/** Options of {@link trackFrames}; defaults in the schema. */
export const TrackOptions = z
  .object({
    /** Resolution levels (layout px per level px), coarse to fine. @default [4, 2] */
    factors: z.array(z.number().int().positive()).min(1).default([4, 2]),
    /** LM iterations per level on every frame after the first. @default [3, 2] */
    iterations: z.array(z.number().int().min(0)).default([3, 2]),
    /** LM iterations per level on the first frame (its start is the least certain). @default [8, 6] */
    firstIterations: z.array(z.number().int().min(0)).default([8, 6]),
    /** Boundary points per channel and view. @default 150 */
    maxBoundary: z.number().int().positive().default(150),
  })
  .strict();
/** Options of {@link trackFrames} as passed in. */
export type TrackOptions = z.input<typeof TrackOptions>;

/** One frame to track: its labels (layout px, e.g. from `segmentImage`) and, if any, heatmap peaks. */
export interface TrackFrame {
  labels: Uint8Array;
  peaks?: KeypointTargets | null;
}

/**
 * Refines a sequence of frames, each starting from the previous frame's result (and, when the
 * objective has a `prior` weight, pulled toward it): the per-frame loop of stage 2. Buffers of
 * the observation levels are reused across frames. Returns one pose per frame (copies) and each
 * frame's report; `onFrame` sees them as they come.
 *
 * ```ts
 * const { poses } = trackFrames(objective, start, frames, layout, groups.length);
 * ```
 */
export function trackFrames(
  objective: ChamferObjective,
  start: RefinePose,
  frames: Iterable<TrackFrame>,
  layout: Layout,
  groups: number,
  options: TrackOptions = {},
  onFrame?: (index: number, pose: RefinePose, report: RefineReport) => void,
): { poses: RefinePose[]; reports: RefineReport[] } {
  const o = TrackOptions.parse(options);
  const state = cloneRefinePose(start);
  const levels: (ObservedViews | undefined)[] = o.factors.map(() => undefined);
  const poses: RefinePose[] = [];
  const reports: RefineReport[] = [];
  let i = 0;
  for (const frame of frames) {
    const obs = o.factors.map((f, k) => {
      const l = observeLabels(frame.labels, layout, groups, f, o.maxBoundary, levels[k]);
      levels[k] = l;
      return l;
    });
    objective.setPrior(state);
    const { report } = refinePose(objective, state, obs, frame.peaks ?? null, {
      iterations: i === 0 ? o.firstIterations : o.iterations,
    });
    const pose = cloneRefinePose(state);
    poses.push(pose);
    reports.push(report);
    onFrame?.(i, pose, report);
    i++;
  }
  objective.setPrior(null);
  return { poses, reports };
}

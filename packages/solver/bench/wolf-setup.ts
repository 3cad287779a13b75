/**
 * The benches' workload: the bundled wolf (rig model, layout, creature info, keypoint names) and
 * its synthetic detections at 2 px noise and 5% outliers, motion and corruption seeded 1.
 *
 * ```ts
 * const det = wolfDetections(120);
 * fit(wolf.model, det, { layout: wolf.layout, creature: wolf.info });
 * ```
 */
import type { Detections } from '@mocap/layout';
import { syntheticDetections, syntheticMotion } from '@mocap/solver';
import { loadCreature } from '../test/helpers.js';

/** The wolf, as the tests load it, with its keypoint names. */
export const wolf = (() => {
  const c = loadCreature('wolf');
  return { ...c, names: c.model.keypoints.map((k) => k.name) };
})();

/** Detections of a `frames`-frame synthetic wolf motion at 30 fps: 2 px noise, 5% outliers, seed 1. */
export function wolfDetections(frames: number): Detections {
  const { model, info, layout, names } = wolf;
  const truth = syntheticMotion(model, info, { frames, seed: 1 });
  return syntheticDetections(truth.joints, names, 30, layout, info, { noisePx: 2, outliers: 0.05, seed: 1 });
}

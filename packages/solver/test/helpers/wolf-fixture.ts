import type { Detections } from '@mocap/layout';
import { type CorruptionOptions, type FitWeights, syntheticDetections, syntheticMotion } from '@mocap/solver';
import {
  DEFAULT_FIT_WEIGHTS,
  type FitData,
  keypointChains,
  orthonormalRigModel,
} from '@mocap/solver/internal';
import { jerkScales } from '../../src/jerk-scales.js';
import { jerkWeightsOfScales } from '../../src/jerk-weights.js';
import { loadCreature } from '../helpers.js';

/** Options of {@link wolfFixture}. */
export interface WolfFixtureOptions {
  /** The bundled creature. @default 'wolf' */
  creature?: 'wolf' | 'dragon';
  /** Frames of the synthetic motion. */
  frames: number;
  /** Seed of the motion and of the corruption. */
  seed: number;
  /** How the detections are corrupted (the seed is `seed`). @default 2 px noise, 5% outliers */
  corrupt?: Omit<CorruptionOptions, 'seed'>;
  /** Term weights over the defaults. @default DEFAULT_FIT_WEIGHTS */
  weights?: Partial<FitWeights>;
  /** Make the true motion with the exact rig model rather than the fit's orthonormal one. @default false */
  exactTruth?: boolean;
}

/**
 * A fit problem on a bundled creature: the orthonormal model the fit works on, a seeded
 * synthetic motion, its corrupted two-view detections and the `FitData` built from them as
 * `fit` builds it (non-finite coordinates 0). `corrupt(options)` corrupts the same truth
 * again; `dataOf(det)` builds `FitData` of other detections.
 *
 * ```ts
 * const { data, truth } = wolfFixture({ frames: 16, seed: 6 });
 * ```
 */
export function wolfFixture(options: WolfFixtureOptions) {
  const { model: exact, layout, info } = loadCreature(options.creature ?? 'wolf');
  const model = orthonormalRigModel(exact);
  const names = model.keypoints.map((k) => k.name);
  const truth = syntheticMotion(options.exactTruth ? exact : model, info, {
    frames: options.frames,
    seed: options.seed,
  });
  const corrupt = (c: Omit<CorruptionOptions, 'seed'>): Detections =>
    syntheticDetections(truth.joints, names, 30, layout, info, { ...c, seed: options.seed });
  const weights = { ...DEFAULT_FIT_WEIGHTS, ...options.weights };
  const dataOf = (det: Detections): FitData => ({
    model,
    layout,
    t: det.frames,
    k: names.length,
    front: Float64Array.from(det.frontUv, (x) => (Number.isFinite(x) ? x : 0)),
    side: Float64Array.from(det.sideUv, (x) => (Number.isFinite(x) ? x : 0)),
    frontConf: Float64Array.from(det.frontConf),
    sideConf: Float64Array.from(det.sideConf),
    feet: Int32Array.from(info.feet),
    weights,
    jerkWeight:
      weights.jerkLever === 0
        ? new Float64Array(0)
        : jerkWeightsOfScales(jerkScales(model, weights.jerkLever), det.frames),
    chains: keypointChains(model),
  });
  const det = corrupt(options.corrupt ?? { noisePx: 2, outliers: 0.05 });
  return { exact, model, layout, info, names, truth, det, data: dataOf(det), corrupt, dataOf };
}

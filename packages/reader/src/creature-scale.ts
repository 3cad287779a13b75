import type { RigidPair } from './rigid-pairs.js';

/** Two-view keypoints, det.npz's layout: T x K x 2 layout px and T x K confidences. */
export interface TwoViewPeaks {
  frontUv: ArrayLike<number>;
  sideUv: ArrayLike<number>;
  frontConf: ArrayLike<number>;
  sideConf: ArrayLike<number>;
}

/** Options of {@link creatureScales}. */
export interface CreatureScalesOptions {
  /** A keypoint is used where its peak is at least this confident in both views. @default 0.3 */
  minConf?: number;
  /** A frame with fewer usable pairs gets no scale (NaN). @default 6 */
  minPairs?: number;
}

const weightedMedian = (v: number[], w: number[]): number => {
  const i = v.map((_, k) => k).sort((x, y) => v[x]! - v[y]!);
  const half = 0.5 * w.reduce((a, b) => a + b, 0);
  let s = 0;
  for (const k of i) {
    s += w[k]!;
    if (s >= half) return v[k]!;
  }
  return v[i[i.length - 1]!]!;
};

/**
 * How large the creature shows on each of `frames` frames against its rig: the weighted median,
 * over {@link rigidPairs} whose keypoints are confident in both views, of the pair's measured 3-D
 * length (front u gives x, side u gives y, the two views' rows z) over its rest length. 1 when the
 * calibration puts the creature at its true size; a framing that zooms shows as a trend in it.
 * NaN on a frame with too few pairs.
 *
 * ```ts
 * const s = creatureScales(peaks, 34, 120, pairs);
 * ```
 */
export function creatureScales(
  peaks: TwoViewPeaks,
  k: number,
  frames: number,
  pairs: readonly RigidPair[],
  o: CreatureScalesOptions = {},
): Float64Array {
  const minConf = o.minConf ?? 0.3;
  const minPairs = o.minPairs ?? 6;
  const out = new Float64Array(frames).fill(Number.NaN);
  for (let t = 0; t < frames; t++) {
    const ratios: number[] = [];
    const weights: number[] = [];
    for (const { a, b, px } of pairs) {
      const ia = t * k + a;
      const ib = t * k + b;
      const conf = Math.min(
        peaks.frontConf[ia]!,
        peaks.frontConf[ib]!,
        peaks.sideConf[ia]!,
        peaks.sideConf[ib]!,
      );
      if (!(conf >= minConf)) continue;
      const dx = peaks.frontUv[2 * ia]! - peaks.frontUv[2 * ib]!;
      const dy = peaks.sideUv[2 * ia]! - peaks.sideUv[2 * ib]!;
      const dz =
        0.5 *
        (peaks.frontUv[2 * ia + 1]! -
          peaks.frontUv[2 * ib + 1]! +
          peaks.sideUv[2 * ia + 1]! -
          peaks.sideUv[2 * ib + 1]!);
      const len = Math.hypot(dx, dy, dz);
      if (!Number.isFinite(len)) continue;
      ratios.push(len / px);
      // A longer pair measures the scale more finely.
      weights.push(px);
    }
    if (ratios.length >= minPairs) out[t] = weightedMedian(ratios, weights);
  }
  return out;
}

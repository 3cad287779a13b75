import { ViewProjection } from '@mocap/layout';
import type { FitData } from './fit-objective.js';
import type { FitState } from './fit-state.js';
import { DIFF, selectKth } from './linalg.js';

/**
 * The jerk prior's weight of every residual (frame r: the difference over frames r .. r + order)
 * and angle (3 per bone, root included), T x 3B, each frame's row the per-bone `scales`: the
 * plain per-bone weights before any robust reweighting.
 */
export function jerkWeightsOfScales(scales: Float64Array, t: number): Float64Array {
  const m = scales.length * 3;
  const out = new Float64Array(t * m);
  for (let f = 0; f < t; f++) {
    for (let q = 0; q < m; q++) out[f * m + q] = scales[(q / 3) | 0] as number;
  }
  return out;
}

/**
 * Robust (iteratively reweighted) jerk weights: each residual's base weight times the Cauchy
 * weight 1 / (1 + (d / c)^2) of its jerk d in the state's angles, c = `k` x the angle's median
 * |jerk| (at least the clip's median over all free angles, so that a still angle does not read
 * its noise as motion). Real motion flicks a paw in a few frames; a fixed prior strong enough
 * for noise flattens the flick, while the reweighted one lets the frames where the fit keeps a
 * large jerk through and still smooths the rest.
 */
export function robustJerkWeights(data: FitData, st: FitState, base: Float64Array, k: number): Float64Array {
  const { t } = data;
  const ord = data.weights.order;
  const co = DIFF[ord];
  const m = st.b * 3;
  const lim = data.model.limits;
  const out = new Float64Array(t * m);
  const rows = Math.max(0, t - ord);
  if (rows === 0) return out.fill(1);
  const jerk = new Float64Array(rows * m);
  const abs = new Float64Array(rows);
  const all = new Float64Array(rows * m);
  let nAll = 0;
  const medians = new Float64Array(m);
  for (let q = 3; q < m; q++) {
    const i = (q / 3) | 0;
    const a = q - 3 * i;
    if (!((lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number))) continue;
    for (let r = 0; r < rows; r++) {
      let d = 0;
      for (let c = 0; c <= ord; c++) d += (co[c] as number) * (st.e[(r + c) * m + q] as number);
      jerk[r * m + q] = d;
      abs[r] = Math.abs(d);
      all[nAll++] = Math.abs(d);
    }
    medians[q] = selectKth(abs, rows >> 1);
  }
  const floor = nAll > 0 ? selectKth(all.subarray(0, nAll), nAll >> 1) : 0;
  for (let r = 0; r < t; r++) {
    for (let q = 0; q < m; q++) {
      const c = k * Math.max(medians[q] as number, floor);
      const d = r < rows ? (jerk[r * m + q] as number) : 0;
      const w = c > 0 ? 1 / (1 + (d / c) ** 2) : 1;
      out[r * m + q] = (base.length > 0 ? (base[r * m + q] as number) : 1) * w;
    }
  }
  return out;
}

/**
 * The jerk prior's Gram matrix D^T diag(w) D per angle (unit `weights.jerk`), by diagonals:
 * angle q's diagonal d at frame f is `out[(q * (order + 1) + d) * t + f]`, the entry (f, f + d).
 * Empty when the data's jerk weights are uniform (`jerkWeight` empty).
 */
export function weightedJerkBands(data: FitData, m: number): Float64Array {
  const w = data.jerkWeight;
  if (w.length === 0) return w;
  const { t } = data;
  const ord = data.weights.order;
  const co = DIFF[ord];
  const span = ord + 1;
  const out = new Float64Array(m * span * t);
  for (let q = 0; q < m; q++) {
    const o = q * span * t;
    for (let r = 0; r + ord < t; r++) {
      const wr = w[r * m + q] as number;
      for (let a = 0; a <= ord; a++) {
        for (let b = a; b <= ord; b++) {
          const at = o + (b - a) * t + r + a;
          out[at] = (out[at] as number) + wr * (co[a] as number) * (co[b] as number);
        }
      }
    }
  }
  return out;
}

/** Options of {@link laggingJerkWeights}. */
export interface LagReleaseOptions {
  /** A residual counts once it exceeds this many times the measured noise (and 4 px). */
  noiseFactor: number;
  /** Bones released per lagging keypoint, from the bone that carries it up its chain. */
  depth: number;
  /** The released residuals' weight, times their base weight. */
  factor: number;
  /** Consecutive frames a keypoint must lag in before it counts. */
  minRun: number;
  /** Frames released on each side of a lagging run beyond those its jerk residuals touch. */
  pad: number;
}

/**
 * The fit's default lag release (docs/benchmarks.md: the Fox's Walk flick, and no release on the
 * wolf's generated gaits, whose noise never lags three frames running in both views).
 */
export const DEFAULT_LAG_RELEASE: Readonly<LagReleaseOptions> = Object.freeze({
  noiseFactor: 2,
  depth: 2,
  factor: 0.01,
  minRun: 3,
  pad: 3,
});

/**
 * Jerk weights that let a fast limb through where the fit lags it: a keypoint whose residual
 * in both views (the smaller of the two, so that an outlier in one view counts for nothing)
 * stands above the noise in `minRun` consecutive frames is lagging there, and the jerk residuals
 * touching those frames of the bones that carry it are scaled by `factor`. Noise and outliers
 * do not agree across views and frames; a flick the prior has flattened does. Returns the
 * weights (T x 3B; `base` or 1 elsewhere) and how many (frame, keypoint) lags were found.
 */
export function laggingJerkWeights(
  data: FitData,
  st: FitState,
  base: Float64Array,
  noisePx: number,
  options: LagReleaseOptions,
): { weights: Float64Array; lags: number } {
  const { t, k, layout } = data;
  const ord = data.weights.order;
  const m = st.b * 3;
  const out = base.length > 0 ? Float64Array.from(base) : new Float64Array(t * m).fill(1);
  const tau = Math.max(4, options.noiseFactor * noisePx);
  const proj = new ViewProjection(layout);
  const over = new Uint8Array(t * k);
  for (let i = 0; i < t * k; i++) {
    if (!((data.frontConf[i] as number) > 0 && (data.sideConf[i] as number) > 0)) continue;
    const x = st.x[3 * i] as number;
    const y = st.x[3 * i + 1] as number;
    const v = proj.row(st.x[3 * i + 2] as number);
    const rf = Math.hypot(
      proj.frontU(x) - (data.front[2 * i] as number),
      v - (data.front[2 * i + 1] as number),
    );
    const rs = Math.hypot(proj.sideU(y) - (data.side[2 * i] as number), v - (data.side[2 * i + 1] as number));
    if (Math.min(rf, rs) > tau) over[i] = 1;
  }
  let lags = 0;
  for (let j = 0; j < k; j++) {
    for (let f = 0; f < t; ) {
      if (!over[f * k + j]) {
        f++;
        continue;
      }
      let end = f;
      while (end < t && over[end * k + j]) end++;
      if (end - f >= options.minRun) {
        lags += end - f;
        const r0 = Math.max(0, f - ord - options.pad);
        releaseChain(
          out,
          base,
          data.chains[j] as Int32Array,
          options,
          r0,
          Math.min(t - 1, end - 1 + options.pad),
          m,
        );
      }
      f = end;
    }
  }
  return { weights: out, lags };
}

/** Scales the jerk weights of rows r0..r1 of the first `depth` bones of `chain` to `factor` x base. */
function releaseChain(
  out: Float64Array,
  base: Float64Array,
  chain: Int32Array,
  options: LagReleaseOptions,
  r0: number,
  r1: number,
  m: number,
): void {
  for (let c = 0; c < Math.min(options.depth, chain.length); c++) {
    const bone = chain[c] as number;
    for (let r = r0; r <= r1; r++) {
      for (let a = 0; a < 3; a++) {
        const at = r * m + bone * 3 + a;
        out[at] = Math.min(out[at] as number, (base.length > 0 ? (base[at] as number) : 1) * options.factor);
      }
    }
  }
}

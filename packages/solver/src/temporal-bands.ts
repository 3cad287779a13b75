import type { FitData } from './fit-objective.js';
import type { BlockPreconditioner } from './fit-preconditioner.js';
import type { FitState } from './fit-state.js';
import { addDiffGram, bandFactor, bandSolve } from './linalg.js';

/**
 * The per-variable temporal part of the Gauss-Newton matrix: for every variable its own
 * frames-long banded system (its diagonal Hessian entry per frame plus the temporal priors
 * acting on it), factored by banded LDL^T. Combined with {@link BlockPreconditioner} in a
 * symmetric multiplicative Schwarz preconditioner (temporal, block, temporal) it carries the
 * priors' coupling between frames that block-Jacobi alone leaves to conjugate gradients.
 */
export class TemporalBands {
  readonly n: number;
  readonly t: number;
  private readonly bands: Float64Array;
  private readonly col: Float64Array;

  constructor(
    readonly data: FitData,
    st: FitState,
  ) {
    this.n = st.n;
    this.t = st.t;
    this.bands = new Float64Array(this.n * 5 * this.t);
    this.col = new Float64Array(this.t);
  }

  /** Rebuilds the bands from the blocks' diagonals (which already hold the priors' diagonal) and the damping `mu`. */
  factor(block: BlockPreconditioner, mu: number, st: FitState): void {
    const { n, t, data } = this;
    const W = data.weights;
    const m2 = data.layout.M_PER_PX ** 2;
    const lim = data.model.limits;
    for (let v = 0; v < n; v++) {
      const band = this.bands.subarray(v * 5 * t, (v + 1) * 5 * t);
      band.fill(0);
      let wj = 0;
      let wv = 0;
      if (v < 3) wj = W.rootJerk / m2;
      else if (v < 6) wj = 2 * W.rootTurnJerk;
      else {
        const i = Math.floor((v - 3) / 3);
        const a = (v - 3) % 3;
        if ((lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number)) {
          wj = W.jerk;
          wv = W.velocity;
        }
      }
      const jb = block.jerkBands;
      if (v >= 6 && wj > 0 && jb.length > 0) addJerkBand(band, jb, v - 3, W.order, t, wj);
      else if (wj > 0) addDiffGram(band, t, v < 6 ? 3 : W.order, wj);
      if (wv > 0) addDiffGram(band, t, 1, wv);
      // Replace the diagonal by the block's (data + priors' diagonal + damping).
      for (let f = 0; f < t; f++) {
        const s = v < 3 ? 1 : (st.s[f * st.b * 3 + v - 3] as number);
        const d = block.diagonal(f, v) + mu * (block.damp[f * n + v] as number);
        band[f] = s > 0 ? d : 1;
        if (!(s > 0)) for (let q = 1; q <= 4; q++) band[q * t + f] = 0;
      }
      bandFactor(band, t, 4);
    }
  }

  /** out = T^-1 r (T x n). */
  apply(r: Float64Array, out: Float64Array): Float64Array {
    const { n, t } = this;
    const col = this.col;
    for (let v = 0; v < n; v++) {
      for (let f = 0; f < t; f++) col[f] = r[f * n + v] as number;
      bandSolve(this.bands.subarray(v * 5 * t, (v + 1) * 5 * t), t, 4, col, 0, 1);
      for (let f = 0; f < t; f++) out[f * n + v] = col[f] as number;
    }
    return out;
  }
}

/** Adds `weight` x angle q's weighted jerk Gram (diagonals of `jb`, see weightedJerkBands) to a band of half-width >= order. */
function addJerkBand(
  band: Float64Array,
  jb: Float64Array,
  q: number,
  order: number,
  t: number,
  weight: number,
): void {
  const o = q * (order + 1) * t;
  for (let d = 0; d <= order; d++) {
    for (let f = 0; f + d < t; f++)
      band[d * t + f] = (band[d * t + f] as number) + weight * (jb[o + d * t + f] as number);
  }
}

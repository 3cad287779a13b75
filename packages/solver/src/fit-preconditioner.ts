import type { FitData, RobustWeights } from './fit-objective.js';
import type { FitState } from './fit-state.js';

/**
 * Block-Jacobi preconditioner of the frame-banded Gauss-Newton system: each frame's exact
 * n x n Hessian block (data with its IRLS weights, the diagonal-in-time parts of the joint
 * acceleration and ground terms, the temporal priors' diagonal, the damping), factored by
 * Cholesky. Conjugate gradients then only have to carry the coupling between frames.
 */
export class BlockPreconditioner {
  readonly n: number;
  readonly t: number;
  /** Per-frame Hessian blocks without damping (T x n x n, row-major). */
  readonly blocks: Float64Array;
  /** Per-frame Cholesky factors (lower, row-major). */
  readonly factors: Float64Array;
  /** Damping diagonal per variable (T x n). */
  readonly damp: Float64Array;
  private readonly cols: Float64Array;
  private readonly idx: Int32Array;

  constructor(
    readonly data: FitData,
    st: FitState,
  ) {
    this.n = st.n;
    this.t = st.t;
    this.blocks = new Float64Array(this.t * this.n * this.n);
    this.factors = new Float64Array(this.t * this.n * this.n);
    this.damp = new Float64Array(this.t * this.n);
    this.cols = new Float64Array(3 * this.n);
    this.idx = new Int32Array(this.n);
  }

  /** Rebuilds every frame's block at `st` with IRLS weights `w` and prior scale `priorScale`. */
  rebuild(st: FitState, w: RobustWeights, priorScale: number): void {
    const { n, t, data } = this;
    const { k, b } = st;
    const { chains } = data;
    const W = data.weights;
    const m2 = data.layout.M_PER_PX ** 2;
    const cols = this.cols;
    const idx = this.idx;
    const feet = new Uint8Array(k);
    for (const j of data.feet) feet[j] = 1;
    const lim = data.model.limits;
    const diag3 = (f: number): number => {
      // diagonal of D3^T D3 at frame f: sum of squared coefficients of the windows covering f
      let s = 0;
      const c = [1, 9, 9, 1];
      for (let q = 0; q < 4; q++) if (f - q >= 0 && f - q + 3 < t) s += c[q] as number;
      return s;
    };
    for (let f = 0; f < t; f++) {
      const a = this.blocks.subarray(f * n * n, (f + 1) * n * n);
      a.fill(0);
      const pb = f * b * 3;
      const accel = f === 0 || f === t - 1 ? 1 : f === 1 || f === t - 2 ? 5 : 6;
      const acc = t >= 3 ? (priorScale * W.jointAccel * accel) / m2 : 0;
      for (let j = 0; j < k; j++) {
        const wf = w.front[f * k + j] as number;
        const ws = w.side[f * k + j] as number;
        const xj = (f * k + j) * 3;
        const ground = feet[j] && (st.x[xj + 2] as number) < 0 ? (priorScale * W.ground) / m2 : 0;
        const wx = wf / m2 + acc;
        const wy = ws / m2 + acc;
        const wz = (wf + ws) / m2 + acc + ground;
        let c = 0;
        for (let q = 0; q < 3; q++) {
          idx[c] = q;
          cols[3 * c] = q === 0 ? 1 : 0;
          cols[3 * c + 1] = q === 1 ? 1 : 0;
          cols[3 * c + 2] = q === 2 ? 1 : 0;
          c++;
        }
        const px0 = st.x[xj] as number;
        const py0 = st.x[xj + 1] as number;
        const pz0 = st.x[xj + 2] as number;
        for (let q = 0; q < 3; q++) {
          const rx = px0 - (st.pos[pb] as number);
          const ry = py0 - (st.pos[pb + 1] as number);
          const rz = pz0 - (st.pos[pb + 2] as number);
          idx[c] = 3 + q;
          cols[3 * c] = q === 0 ? 0 : q === 1 ? rz : -ry;
          cols[3 * c + 1] = q === 0 ? -rz : q === 1 ? 0 : rx;
          cols[3 * c + 2] = q === 0 ? ry : q === 1 ? -rx : 0;
          c++;
        }
        const chain = chains[j]!;
        for (let ci = 0; ci < chain.length; ci++) {
          const i = chain[ci] as number;
          const ab = (f * b + i) * 9;
          const rx = px0 - (st.pos[pb + i * 3] as number);
          const ry = py0 - (st.pos[pb + i * 3 + 1] as number);
          const rz = pz0 - (st.pos[pb + i * 3 + 2] as number);
          for (let q = 0; q < 3; q++) {
            const s = st.s[(f * b + i) * 3 + q] as number;
            const ax = st.axes[ab + q * 3] as number;
            const ay = st.axes[ab + q * 3 + 1] as number;
            const az = st.axes[ab + q * 3 + 2] as number;
            idx[c] = 3 + 3 * i + q;
            cols[3 * c] = s * (ay * rz - az * ry);
            cols[3 * c + 1] = s * (az * rx - ax * rz);
            cols[3 * c + 2] = s * (ax * ry - ay * rx);
            c++;
          }
        }
        for (let p = 0; p < c; p++) {
          const qx = wx * (cols[3 * p] as number);
          const qy = wy * (cols[3 * p + 1] as number);
          const qz = wz * (cols[3 * p + 2] as number);
          const row = (idx[p] as number) * n;
          for (let q = 0; q <= p; q++) {
            const at = row + (idx[q] as number);
            a[at] =
              (a[at] as number) +
              qx * (cols[3 * q] as number) +
              qy * (cols[3 * q + 1] as number) +
              qz * (cols[3 * q + 2] as number);
          }
        }
      }
      // Temporal priors' diagonal and the damping scale of each variable.
      const d3 = diag3(f);
      const d1 = (f > 0 ? 1 : 0) + (f + 1 < t ? 1 : 0);
      for (let q = 0; q < 3; q++) {
        const kt = (priorScale * W.rootJerk) / m2;
        a[q * n + q] = (a[q * n + q] as number) + kt * d3;
        this.damp[f * n + q] = kt + 1e-6 / m2;
        const kr = 2 * priorScale * W.rootTurnJerk;
        a[(3 + q) * n + 3 + q] = (a[(3 + q) * n + 3 + q] as number) + kr * d3;
        this.damp[f * n + 3 + q] = kr + 1e-3;
      }
      for (let i = 1; i < b; i++) {
        for (let q = 0; q < 3; q++) {
          const v = 3 + 3 * i + q;
          const s = st.s[pb + i * 3 + q] as number;
          const free = (lim[i * 6 + 2 * q + 1] as number) > (lim[i * 6 + 2 * q] as number);
          const pd = priorScale * (W.jerk * d3 + W.velocity * d1 + W.rest);
          a[v * n + v] = (a[v * n + v] as number) + (free ? s * s * pd : 1);
          this.damp[f * n + v] = s * s * (priorScale * (W.jerk + W.rest) + 1e-3);
        }
      }
      // Symmetrise (only the lower triangle was accumulated, in index order of the chain).
      for (let p = 0; p < n; p++) {
        for (let q = 0; q < p; q++) {
          const lo = a[p * n + q] as number;
          const up = a[q * n + p] as number;
          a[p * n + q] = lo + up;
          a[q * n + p] = lo + up;
        }
      }
    }
  }

  /** Factors every block with damping `mu` (one value or one per frame) added (Cholesky; a failed pivot is floored). */
  factor(muAll: number | Float64Array, only?: Uint8Array): void {
    const { n, t } = this;
    for (let f = 0; f < t; f++) {
      if (only && !only[f]) continue;
      const mu = typeof muAll === 'number' ? muAll : (muAll[f] as number);
      const L = this.factors.subarray(f * n * n, (f + 1) * n * n);
      L.set(this.blocks.subarray(f * n * n, (f + 1) * n * n));
      for (let q = 0; q < n; q++)
        L[q * n + q] = (L[q * n + q] as number) + mu * (this.damp[f * n + q] as number);
      for (let j = 0; j < n; j++) {
        const rj = j * n;
        let d = L[rj + j] as number;
        for (let q = 0; q < j; q++) d -= (L[rj + q] as number) ** 2;
        const floor = 1e-12 * Math.abs(L[rj + j] as number) + 1e-300;
        d = Math.sqrt(Math.max(d, floor));
        L[rj + j] = d;
        for (let i = j + 1; i < n; i++) {
          const ri = i * n;
          let s = L[ri + j] as number;
          for (let q = 0; q < j; q++) s -= (L[ri + q] as number) * (L[rj + q] as number);
          L[ri + j] = s / d;
        }
      }
    }
  }

  /** out = M^-1 r (both T x n). */
  apply(r: Float64Array, out: Float64Array, only?: Uint8Array): Float64Array {
    const { n, t } = this;
    const L = this.factors;
    for (let f = 0; f < t; f++) {
      if (only && !only[f]) {
        out.fill(0, f * n, (f + 1) * n);
        continue;
      }
      const base = f * n * n;
      const o = f * n;
      for (let i = 0; i < n; i++) {
        let s = r[o + i] as number;
        const ri = base + i * n;
        for (let q = 0; q < i; q++) s -= (L[ri + q] as number) * (out[o + q] as number);
        out[o + i] = s / (L[ri + i] as number);
      }
      for (let i = n - 1; i >= 0; i--) {
        let s = out[o + i] as number;
        for (let q = i + 1; q < n; q++) s -= (L[base + q * n + i] as number) * (out[o + q] as number);
        out[o + i] = s / (L[base + i * n + i] as number);
      }
    }
    return out;
  }
}

import type { FitData, RobustWeights } from './fit-objective.js';
import type { FitState } from './fit-state.js';
import {
  type FrameBlockLayout,
  factorFrameBlock,
  frameBlockLayout,
  solveFrameBlock,
} from './frame-block-cholesky.js';
import { weightedJerkBands } from './jerk-weights.js';
import { addGram, keypointColumns } from './keypoint-gram.js';
import { addDiffGram, diffDiagonal } from './linalg.js';

/**
 * Block-Jacobi preconditioner of the frame-banded Gauss-Newton system: each frame's exact
 * n x n Hessian block (data with its IRLS weights, the diagonal-in-time parts of the joint
 * acceleration and ground terms, the temporal priors' diagonal, the damping), factored by
 * Cholesky. Conjugate gradients then only have to carry the coupling between frames.
 */
export class BlockPreconditioner {
  readonly n: number;
  readonly t: number;
  /** Per-frame Hessian blocks without damping, compact lower triangles in the factors' layout. */
  blocks: Float64Array;
  /** Per-frame Cholesky factors, compact: row i holds positions lo[i]..i, at `rowBase[i] + q`. */
  readonly factors: Float64Array;
  /** 1 / the factors' diagonal, per frame and elimination position (T x n). */
  private readonly invDiag: Float64Array;
  /** Entries of one frame's compact factor. */
  private readonly nnz: number;
  private readonly rowBase: Int32Array;
  /** Damping diagonal per variable (T x n). */
  readonly damp: Float64Array;
  /** Jacobian columns of one keypoint: x, y and z components, n each. */
  private readonly cx: Float64Array;
  private readonly cy: Float64Array;
  private readonly cz: Float64Array;
  /** 1 for the keypoints that are feet (from `data.feet`, refreshed by each rebuild). */
  private readonly feet: Uint8Array;
  /**
   * Per keypoint, the compact entry (within a frame's block) of every pair (p, q <= p) of its
   * Jacobian columns (root translation, root rotation, then its chain's bones), in loop order.
   */
  private readonly pairEntries: Int32Array[];
  /** Elimination order (leaves first, the root last): `perm[position] = variable`. */
  private readonly perm: Int32Array;
  /** The frame blocks' elimination order and compact storage. */
  private readonly layout: FrameBlockLayout;
  private readonly work: Float64Array;

  constructor(
    /** The problem (its frame count must stay `t`; {@link frameLmLoop} points it at each window in turn). */
    public data: FitData,
    st: FitState,
  ) {
    this.n = st.n;
    this.t = st.t;
    this.damp = new Float64Array(this.t * this.n);
    this.cx = new Float64Array(this.n);
    this.cy = new Float64Array(this.n);
    this.cz = new Float64Array(this.n);
    this.feet = new Uint8Array(st.k);
    this.work = new Float64Array(this.n);
    const lay = frameBlockLayout(data.model.parent, st.b, this.n);
    this.layout = lay;
    this.perm = lay.perm;
    this.rowBase = lay.rowBase;
    this.nnz = lay.nnz;
    this.pos = lay.pos;
    this.factors = new Float64Array(this.t * lay.nnz);
    this.invDiag = new Float64Array(this.t * this.n);
    this.blocks = new Float64Array(this.t * lay.nnz);
    const rowBase = lay.rowBase;
    this.pairEntries = data.chains.map((chain) => {
      const vars = [0, 1, 2, 3, 4, 5];
      for (const i of chain) vars.push(3 + 3 * i, 4 + 3 * i, 5 + 3 * i);
      const out: number[] = [];
      for (let p = 0; p < vars.length; p++) {
        const P = this.pos[vars[p] as number] as number;
        for (let q = 0; q <= p; q++) {
          const Q = this.pos[vars[q] as number] as number;
          out.push(P >= Q ? (rowBase[P] as number) + Q : (rowBase[Q] as number) + P);
        }
      }
      return Int32Array.from(out);
    });
  }

  /** Variable -> elimination position. */
  private readonly pos: Int32Array;
  /** The weighted jerk Gram per angle by diagonals ({@link weightedJerkBands}; empty: uniform), refreshed by each rebuild. */
  jerkBands: Float64Array = new Float64Array(0);

  /** Frame f's Hessian block entry (without damping) of variable v with itself. */
  diagonal(f: number, v: number): number {
    const i = this.pos[v] as number;
    return this.blocks[f * this.nnz + (this.rowBase[i] as number) + i] as number;
  }

  /** Rebuilds every frame's block at `st` with IRLS weights `w` and prior scale `priorScale`. */
  rebuild(st: FitState, w: RobustWeights, priorScale: number): void {
    this.couplingStale = true;
    this.jerkBands = weightedJerkBands(this.data, st.b * 3);
    const feet = this.feet;
    feet.fill(0);
    for (const j of this.data.feet) feet[j] = 1;
    for (let f = 0; f < this.t; f++) this.rebuildFrame(st, w, priorScale, f);
  }

  /** Frame f's block of {@link rebuild} (a method of its own: it is optimised after a few frames). */
  private rebuildFrame(st: FitState, w: RobustWeights, priorScale: number, f: number): void {
    const { n, t, data, feet } = this;
    const { k, b } = st;
    const W = data.weights;
    const m2 = data.layout.M_PER_PX ** 2;
    const a = this.blocks;
    const ab0 = f * this.nnz;
    a.fill(0, ab0, ab0 + this.nnz);
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
      const c = keypointColumns(this.cx, this.cy, this.cz, data.chains, st, f, j);
      addGram(a, ab0, this.pairEntries[j]!, c, wx, wy, wz, this.cx, this.cy, this.cz);
    }
    // Temporal priors' diagonal and the damping scale of each variable.
    const d3 = diffDiagonal(f, 3, t);
    const dA = diffDiagonal(f, W.order, t);
    const d1 = (f > 0 ? 1 : 0) + (f + 1 < t ? 1 : 0);
    for (let q = 0; q < 3; q++) {
      const kt = (priorScale * W.rootJerk) / m2;
      const tt = this.entry(ab0, q, q);
      a[tt] = (a[tt] as number) + kt * d3;
      this.damp[f * n + q] = kt + 1e-6 / m2;
      const kr = 2 * priorScale * W.rootTurnJerk;
      const rr = this.entry(ab0, 3 + q, 3 + q);
      a[rr] = (a[rr] as number) + kr * d3;
      this.damp[f * n + 3 + q] = kr + 1e-3;
    }
    const lim = data.model.limits;
    const jb = this.jerkBands;
    const span = W.order + 1;
    for (let i = 1; i < b; i++) {
      for (let q = 0; q < 3; q++) {
        const v = 3 + 3 * i + q;
        const s = st.s[pb + i * 3 + q] as number;
        const free = (lim[i * 6 + 2 * q + 1] as number) > (lim[i * 6 + 2 * q] as number);
        // Weighted jerk: the Gram's diagonal at f, and the mean weight of its residuals for the damping.
        const jd = jb.length > 0 ? (jb[(3 * i + q) * span * t + f] as number) : dA;
        const wj = W.jerk * (dA > 0 ? jd / dA : 1);
        const pd = priorScale * (W.jerk * jd + W.velocity * d1 + W.rest);
        const vv = this.entry(ab0, v, v);
        a[vv] = (a[vv] as number) + (free ? s * s * pd : 1);
        this.damp[f * n + v] = s * s * (priorScale * (wj + W.rest) + 1e-3);
      }
    }
  }

  /** Index in `blocks` of the entry of variables u and v in the block at `ab0`. */
  private entry(ab0: number, u: number, v: number): number {
    const P = this.pos[u] as number;
    const Q = this.pos[v] as number;
    return ab0 + (P >= Q ? (this.rowBase[P] as number) + Q : (this.rowBase[Q] as number) + P);
  }

  /**
   * Factors every block with damping `mu` (one value or one per frame) added: sparse Cholesky
   * in tree order, three rows (one bone) at a time, since a bone's three rows share their
   * sparsity; a failed pivot is floored.
   */
  factor(muAll: number | Float64Array, only?: Uint8Array): void {
    for (let f = 0; f < this.t; f++) {
      if (only && !only[f]) continue;
      const mu = typeof muAll === 'number' ? muAll : (muAll[f] as number);
      factorFrameBlock(this.layout, this.blocks, this.damp, this.factors, this.invDiag, f, mu);
    }
  }

  /**
   * Symmetric block Gauss-Seidel over frames: M = (D + L) D^-1 (D + U), D the factored frame
   * blocks and L, U the temporal priors' couplings between frames (diagonal per offset: each
   * variable couples only to itself in other frames). out = M^-1 r. Works in elimination
   * order throughout (one permutation in, one out), so the sweeps index nothing indirectly.
   */
  applySgs(st: FitState, r: Float64Array, out: Float64Array): Float64Array {
    const { n, t } = this;
    if (this.couplingStale) this.coupling(st);
    if (this.sgsTmp.length !== n) this.sgsTmp = new Float64Array(n);
    if (this.sgsX.length !== t * n) this.sgsX = new Float64Array(t * n);
    // Each sweep its own method: small enough to be compiled whole, not loop by loop.
    this.sgsForward(r);
    this.sgsBackward(out);
    return out;
  }

  /** Forward sweep of {@link applySgs}: (D + L) z = r, z into `sgsX` in elimination order. */
  private sgsForward(r: Float64Array): void {
    const { n, t, perm } = this;
    const w = this.sgsW;
    const x = this.sgsX;
    const width = this.couplingWidth;
    for (let f = 0; f < t; f++) {
      const o = f * n;
      for (let i = 0; i < n; i++) x[o + i] = r[o + (perm[i] as number)] as number;
      for (let d = 1; d <= width && d <= f; d++) {
        const wb = (d * t + f - d) * n;
        const xb = o - d * n;
        for (let i = 0; i < n; i++)
          x[o + i] = (x[o + i] as number) - (w[wb + i] as number) * (x[xb + i] as number);
      }
      solveFrameBlock(this.layout, this.factors, this.invDiag, f, x, o);
    }
  }

  /**
   * Backward sweep of {@link applySgs}: (D + U) x = D z, i.e. x_f = z_f - D_f^-1 sum_d U x_{f+d},
   * in place; each frame, once final, is written to `out` in variable order while it is in cache.
   */
  private sgsBackward(out: Float64Array): void {
    const { n, t, perm } = this;
    const w = this.sgsW;
    const x = this.sgsX;
    const y = this.sgsTmp;
    const width = this.couplingWidth;
    const last = (t - 1) * n;
    for (let i = 0; i < n; i++) out[last + (perm[i] as number)] = x[last + i] as number;
    for (let f = t - 2; f >= 0; f--) {
      y.fill(0);
      for (let d = 1; d <= width && f + d < t; d++) {
        const wb = (d * t + f) * n;
        const xb = (f + d) * n;
        for (let i = 0; i < n; i++) y[i] = (y[i] as number) + (w[wb + i] as number) * (x[xb + i] as number);
      }
      solveFrameBlock(this.layout, this.factors, this.invDiag, f, y, 0);
      const o = f * n;
      for (let i = 0; i < n; i++) {
        const v = (x[o + i] as number) - (y[i] as number);
        x[o + i] = v;
        out[o + (perm[i] as number)] = v;
      }
    }
  }

  private sgsTmp = new Float64Array(0);
  private sgsX = new Float64Array(0);
  /** Couplings in elimination order: (d * T + f) * n + position. */
  private sgsW = new Float64Array(0);
  private couplingWidth = 3;
  /** Whether the couplings are older than the blocks (they are built on the first sweep after a rebuild). */
  private couplingStale = true;

  /** The coupling K[f, f + d] per variable (d = 1..width), as (d * T + f) * n + position. */
  private coupling(st: FitState): Float64Array {
    const { n, t, data } = this;
    const W = data.weights;
    const order = W.order;
    const width = Math.max(3, order);
    this.couplingWidth = width;
    const size = (width + 1) * t * n;
    if (this.sgsW.length !== size) this.sgsW = new Float64Array(size);
    const w = this.sgsW;
    w.fill(0);
    this.couplingStale = false;
    const bj = new Float64Array((width + 1) * t);
    const b3 = new Float64Array((width + 1) * t);
    const b1 = new Float64Array((width + 1) * t);
    addDiffGram(bj, t, order, 1);
    addDiffGram(b3, t, 3, 1);
    addDiffGram(b1, t, 1, 1);
    for (let d = 1; d <= width; d++) {
      for (let f = 0; f + d < t; f++) this.couplingAt(st, d, f, bj, b3, b1);
    }
    return w;
  }

  /**
   * The coupling K[f, f + d] of {@link coupling} (`bj`, `b3`, `b1`: the angle, root and velocity
   * stencils by diagonals); a method of its own, optimised after a few frames.
   */
  private couplingAt(
    st: FitState,
    d: number,
    f: number,
    bj: Float64Array,
    b3: Float64Array,
    b1: Float64Array,
  ): void {
    const { n, t, data, pos } = this;
    const W = data.weights;
    const m2 = data.layout.M_PER_PX ** 2;
    const lim = data.model.limits;
    const w = this.sgsW;
    const jb = this.jerkBands;
    const order = W.order;
    const o = (d * t + f) * n;
    for (let q = 0; q < 3; q++) {
      w[o + (pos[q] as number)] = (W.rootJerk / m2) * (b3[d * t + f] as number);
      w[o + (pos[3 + q] as number)] = 2 * W.rootTurnJerk * (b3[d * t + f] as number);
    }
    for (let i = 1; i < st.b; i++) {
      for (let a = 0; a < 3; a++) {
        if (!((lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number))) continue;
        const kj =
          d > order
            ? 0
            : jb.length > 0
              ? (jb[((3 * i + a) * (order + 1) + d) * t + f] as number)
              : (bj[d * t + f] as number);
        const s0 = st.s[(f * st.b + i) * 3 + a] as number;
        const s1 = st.s[((f + d) * st.b + i) * 3 + a] as number;
        w[o + (pos[3 + 3 * i + a] as number)] =
          s0 * s1 * (W.jerk * kj + W.velocity * (b1[d * t + f] as number));
      }
    }
  }

  /** out = M^-1 r (both T x n); frames not in `only` get 0. */
  apply(r: Float64Array, out: Float64Array, only?: Uint8Array): Float64Array {
    const { n, t, perm } = this;
    const y = this.work;
    for (let f = 0; f < t; f++) {
      const o = f * n;
      if (only && !only[f]) {
        out.fill(0, o, o + n);
        continue;
      }
      for (let i = 0; i < n; i++) y[i] = r[o + (perm[i] as number)] as number;
      solveFrameBlock(this.layout, this.factors, this.invDiag, f, y, 0);
      for (let i = 0; i < n; i++) out[o + (perm[i] as number)] = y[i] as number;
    }
    return out;
  }
}

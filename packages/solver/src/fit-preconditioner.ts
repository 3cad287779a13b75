import type { FitData, RobustWeights } from './fit-objective.js';
import type { FitState } from './fit-state.js';
import { addDiffGram, bandFactor, bandSolve, DIFF } from './linalg.js';

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
  /** Entries of one frame's compact factor. */
  private readonly nnz: number;
  private readonly rowBase: Int32Array;
  /** Damping diagonal per variable (T x n). */
  readonly damp: Float64Array;
  private readonly cols: Float64Array;
  private readonly idx: Int32Array;
  /** Elimination order (leaves first, the root last): `perm[position] = variable`. */
  private readonly perm: Int32Array;
  /**
   * Per position, the first position its factor row can be non-zero at: the bones are in
   * post-order, so a bone's descendants are the contiguous run of positions just before it.
   */
  private readonly lo: Int32Array;
  private readonly work: Float64Array;

  constructor(
    readonly data: FitData,
    st: FitState,
  ) {
    this.n = st.n;
    this.t = st.t;
    this.blocks = new Float64Array(0);
    this.factors = new Float64Array(0);
    this.nnz = 0;
    this.rowBase = new Int32Array(0);
    this.damp = new Float64Array(this.t * this.n);
    this.cols = new Float64Array(3 * this.n);
    this.idx = new Int32Array(this.n);
    this.work = new Float64Array(this.n);
    // Variables of bone b (root: trans + rotation) sit in its slot. Eliminating bones in
    // post-order (children before parents, the root last) creates no fill: a variable only
    // couples to its own bone's, its ancestors' and its descendants', and the descendants of a
    // bone are exactly the positions between the start of its subtree and itself.
    const { b } = st;
    const parent = data.model.parent;
    const children: number[][] = Array.from({ length: b }, () => []);
    for (let i = 1; i < b; i++) children[parent[i] as number]!.push(i);
    const order: number[] = [];
    const lo: number[] = [];
    const visit = (bone: number): void => {
      const first = order.length;
      for (const c of children[bone]!) visit(c);
      const start = bone === 0 ? 0 : first;
      const vars = bone === 0 ? [3, 4, 5, 0, 1, 2] : [3 + 3 * bone, 4 + 3 * bone, 5 + 3 * bone];
      for (const v of vars) {
        order.push(v);
        lo.push(start);
      }
    };
    visit(0);
    this.perm = Int32Array.from(order);
    this.lo = Int32Array.from(lo);
    const rowBase = new Int32Array(this.n);
    let off = 0;
    for (let i = 0; i < this.n; i++) {
      rowBase[i] = off - (lo[i] as number);
      off += i - (lo[i] as number) + 1;
    }
    this.rowBase = rowBase;
    this.nnz = off;
    this.factors = new Float64Array(this.t * off);
    this.blocks = new Float64Array(this.t * off);
    this.pos = new Int32Array(this.n);
    for (let i = 0; i < this.n; i++) this.pos[this.perm[i] as number] = i;
  }

  /** Variable -> elimination position. */
  private readonly pos: Int32Array;

  /** Frame f's Hessian block entry (without damping) of variable v with itself. */
  diagonal(f: number, v: number): number {
    const i = this.pos[v] as number;
    return this.blocks[f * this.nnz + (this.rowBase[i] as number) + i] as number;
  }

  /** Rebuilds every frame's block at `st` with IRLS weights `w` and prior scale `priorScale`. */
  rebuild(st: FitState, w: RobustWeights, priorScale: number): void {
    this.coupling(st);
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
    const diagOf = (f: number, order: 3 | 4): number => {
      // diagonal of D^T D at frame f: sum of squared coefficients of the windows covering f
      const c = DIFF[order];
      let s = 0;
      for (let q = 0; q <= order; q++) if (f - q >= 0 && f - q + order < t) s += (c[q] as number) ** 2;
      return s;
    };
    for (let f = 0; f < t; f++) {
      const a = this.blocks.subarray(f * this.nnz, (f + 1) * this.nnz);
      a.fill(0);
      const pos = this.pos;
      const rb = this.rowBase;
      const at = (u: number, v: number): number => {
        const P = pos[u] as number;
        const Q = pos[v] as number;
        return P >= Q ? (rb[P] as number) + Q : (rb[Q] as number) + P;
      };
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
          const P = pos[idx[p] as number] as number;
          const rowP = rb[P] as number;
          for (let q = 0; q <= p; q++) {
            const Q = pos[idx[q] as number] as number;
            const e = P >= Q ? rowP + Q : (rb[Q] as number) + P;
            a[e] =
              (a[e] as number) +
              qx * (cols[3 * q] as number) +
              qy * (cols[3 * q + 1] as number) +
              qz * (cols[3 * q + 2] as number);
          }
        }
      }
      // Temporal priors' diagonal and the damping scale of each variable.
      const d3 = diagOf(f, 3);
      const dA = diagOf(f, W.order);
      const d1 = (f > 0 ? 1 : 0) + (f + 1 < t ? 1 : 0);
      for (let q = 0; q < 3; q++) {
        const kt = (priorScale * W.rootJerk) / m2;
        a[at(q, q)] = (a[at(q, q)] as number) + kt * d3;
        this.damp[f * n + q] = kt + 1e-6 / m2;
        const kr = 2 * priorScale * W.rootTurnJerk;
        a[at(3 + q, 3 + q)] = (a[at(3 + q, 3 + q)] as number) + kr * d3;
        this.damp[f * n + 3 + q] = kr + 1e-3;
      }
      for (let i = 1; i < b; i++) {
        for (let q = 0; q < 3; q++) {
          const v = 3 + 3 * i + q;
          const s = st.s[pb + i * 3 + q] as number;
          const free = (lim[i * 6 + 2 * q + 1] as number) > (lim[i * 6 + 2 * q] as number);
          const pd = priorScale * (W.jerk * dA + W.velocity * d1 + W.rest);
          a[at(v, v)] = (a[at(v, v)] as number) + (free ? s * s * pd : 1);
          this.damp[f * n + v] = s * s * (priorScale * (W.jerk + W.rest) + 1e-3);
        }
      }
    }
  }

  /** Factors every block with damping `mu` (one value or one per frame) added (sparse Cholesky in tree order; a failed pivot is floored). */
  factor(muAll: number | Float64Array, only?: Uint8Array): void {
    const { n, t, perm, lo } = this;
    const A = this.blocks;
    const L = this.factors;
    for (let f = 0; f < t; f++) {
      if (only && !only[f]) continue;
      const mu = typeof muAll === 'number' ? muAll : (muAll[f] as number);
      const ab = f * this.nnz;
      const lb = f * this.nnz;
      const rb = this.rowBase;
      for (let i = 0; i < n; i++) {
        const vi = perm[i] as number;
        const ri = lb + (rb[i] as number);
        const li = lo[i] as number;
        const aii = A[ab + (rb[i] as number) + i] as number;
        let d = aii + mu * (this.damp[f * n + vi] as number);
        for (let j = li; j < i; j++) {
          const rj = lb + (rb[j] as number);
          let s = A[ab + (rb[i] as number) + j] as number;
          for (let q = lo[j] as number; q < j; q++) s -= (L[ri + q] as number) * (L[rj + q] as number);
          const l = s / (L[rj + j] as number);
          L[ri + j] = l;
          d -= l * l;
        }
        const floor = 1e-12 * Math.abs(aii) + 1e-300;
        L[ri + i] = Math.sqrt(Math.max(d, floor));
      }
    }
  }

  /**
   * Symmetric block Gauss-Seidel over frames: M = (D + L) D^-1 (D + U), D the factored frame
   * blocks and L, U the temporal priors' couplings between frames (diagonal per offset: each
   * variable couples only to itself in other frames). out = M^-1 r.
   */
  applySgs(st: FitState, r: Float64Array, out: Float64Array): Float64Array {
    const { n, t } = this;
    const w = this.sgsW.length > 0 ? this.sgsW : this.coupling(st);
    if (this.sgsTmp.length !== n) this.sgsTmp = new Float64Array(n);
    const y = this.sgsTmp;
    const width = this.couplingWidth;
    // Forward: (D + L) z = r.
    for (let f = 0; f < t; f++) {
      for (let v = 0; v < n; v++) {
        let s = r[f * n + v] as number;
        for (let d = 1; d <= width && d <= f; d++)
          s -= (w[(d * t + f - d) * n + v] as number) * (out[(f - d) * n + v] as number);
        y[v] = s;
      }
      this.solveFrame(f, y, out, f * n);
    }
    // Backward: (D + U) x = D z, i.e. x_f = z_f - D_f^-1 sum_d U x_{f+d}.
    for (let f = t - 1; f >= 0; f--) {
      let any = false;
      for (let v = 0; v < n; v++) {
        let s = 0;
        for (let d = 1; d <= width && f + d < t; d++)
          s += (w[(d * t + f) * n + v] as number) * (out[(f + d) * n + v] as number);
        y[v] = s;
        if (s !== 0) any = true;
      }
      if (!any) continue;
      this.solveFrame(f, y, y, 0);
      for (let v = 0; v < n; v++) out[f * n + v] = (out[f * n + v] as number) - (y[v] as number);
    }
    return out;
  }

  private sgsTmp = new Float64Array(0);
  private sgsW = new Float64Array(0);
  private couplingWidth = 3;

  /** The coupling K[f, f + d] per variable (d = 1..width), as (d * T + f) * n + v. */
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
    const m2 = data.layout.M_PER_PX ** 2;
    const lim = data.model.limits;
    const bj = new Float64Array((width + 1) * t);
    const b3 = new Float64Array((width + 1) * t);
    const b1 = new Float64Array((width + 1) * t);
    addDiffGram(bj, t, order, 1);
    addDiffGram(b3, t, 3, 1);
    addDiffGram(b1, t, 1, 1);
    for (let d = 1; d <= width; d++) {
      for (let f = 0; f + d < t; f++) {
        const o = (d * t + f) * n;
        for (let q = 0; q < 3; q++) {
          w[o + q] = (W.rootJerk / m2) * (b3[d * t + f] as number);
          w[o + 3 + q] = 2 * W.rootTurnJerk * (b3[d * t + f] as number);
        }
        for (let i = 1; i < st.b; i++) {
          for (let a = 0; a < 3; a++) {
            if (!((lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number))) continue;
            const s0 = st.s[(f * st.b + i) * 3 + a] as number;
            const s1 = st.s[((f + d) * st.b + i) * 3 + a] as number;
            w[o + 3 + 3 * i + a] =
              s0 * s1 * (W.jerk * (bj[d * t + f] as number) + W.velocity * (b1[d * t + f] as number));
          }
        }
      }
    }
    return w;
  }

  /** Solves frame f's factored block: out[oo..oo+n] = D_f^-1 rhs (rhs may alias out). */
  private solveFrame(f: number, rhs: Float64Array, out: Float64Array, oo: number): void {
    const { n, perm, lo } = this;
    const L = this.factors;
    const y = this.work;
    const lb = f * this.nnz;
    const rb = this.rowBase;
    for (let i = 0; i < n; i++) {
      let s = rhs[(rhs === out ? oo : 0) + (perm[i] as number)] as number;
      const ri = lb + (rb[i] as number);
      for (let q = lo[i] as number; q < i; q++) s -= (L[ri + q] as number) * (y[q] as number);
      y[i] = s / (L[ri + i] as number);
    }
    for (let i = n - 1; i >= 0; i--) {
      const ri = lb + (rb[i] as number);
      const yi = (y[i] as number) / (L[ri + i] as number);
      y[i] = yi;
      for (let q = lo[i] as number; q < i; q++) y[q] = (y[q] as number) - (L[ri + q] as number) * yi;
    }
    for (let i = 0; i < n; i++) out[oo + (perm[i] as number)] = y[i] as number;
  }

  /** out = M^-1 r (both T x n). */
  apply(r: Float64Array, out: Float64Array, only?: Uint8Array): Float64Array {
    const { n, t, perm, lo } = this;
    const L = this.factors;
    const y = this.work;
    for (let f = 0; f < t; f++) {
      const o = f * n;
      if (only && !only[f]) {
        out.fill(0, o, o + n);
        continue;
      }
      const lb = f * this.nnz;
      const rb = this.rowBase;
      for (let i = 0; i < n; i++) {
        let s = r[o + (perm[i] as number)] as number;
        const ri = lb + (rb[i] as number);
        for (let q = lo[i] as number; q < i; q++) s -= (L[ri + q] as number) * (y[q] as number);
        y[i] = s / (L[ri + i] as number);
      }
      for (let i = n - 1; i >= 0; i--) {
        const ri = lb + (rb[i] as number);
        const yi = (y[i] as number) / (L[ri + i] as number);
        y[i] = yi;
        for (let q = lo[i] as number; q < i; q++) y[q] = (y[q] as number) - (L[ri + q] as number) * yi;
        out[o + (perm[i] as number)] = yi;
      }
    }
    return out;
  }
}

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
      if (wj > 0) addDiffGram(band, t, v < 6 ? 3 : W.order, wj);
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

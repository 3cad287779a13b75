import type { FitData, RobustWeights } from './fit-objective.js';
import type { FitState } from './fit-state.js';
import { weightedJerkBands } from './jerk-weights.js';
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
  /**
   * Per position, the first position its factor row can be non-zero at: the bones are in
   * post-order, so a bone's descendants are the contiguous run of positions just before it.
   */
  private readonly lo: Int32Array;
  private readonly work: Float64Array;

  constructor(
    /** The problem (its frame count must stay `t`; {@link frameLmLoop} points it at each window in turn). */
    public data: FitData,
    st: FitState,
  ) {
    this.n = st.n;
    this.t = st.t;
    this.blocks = new Float64Array(0);
    this.factors = new Float64Array(0);
    this.nnz = 0;
    this.rowBase = new Int32Array(0);
    this.damp = new Float64Array(this.t * this.n);
    this.cx = new Float64Array(this.n);
    this.cy = new Float64Array(this.n);
    this.cz = new Float64Array(this.n);
    this.feet = new Uint8Array(st.k);
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
    // The factor and the solves work a bone (three positions sharing their sparsity) at a time.
    for (let i = 0; i < this.n; i += 3) {
      if (lo[i] !== lo[i + 1] || lo[i] !== lo[i + 2])
        throw new Error('BlockPreconditioner: bone rows out of step.');
    }
    const rowBase = new Int32Array(this.n);
    let off = 0;
    for (let i = 0; i < this.n; i++) {
      rowBase[i] = off - (lo[i] as number);
      off += i - (lo[i] as number) + 1;
    }
    this.rowBase = rowBase;
    this.nnz = off;
    this.factors = new Float64Array(this.t * off);
    this.invDiag = new Float64Array(this.t * this.n);
    this.blocks = new Float64Array(this.t * off);
    this.pos = new Int32Array(this.n);
    for (let i = 0; i < this.n; i++) this.pos[this.perm[i] as number] = i;
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
      const c = this.keypointColumns(st, f, j);
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
   * Fills `cx`, `cy`, `cz` with the columns of keypoint j's Jacobian at frame f: root
   * translation (unit), root rotation, chain bones (cross products of the rotation axes with
   * the lever arm, read in place from st.axes); returns the column count.
   */
  private keypointColumns(st: FitState, f: number, j: number): number {
    const { cx, cy, cz } = this;
    const { k, b } = st;
    const xj = (f * k + j) * 3;
    const pb = f * b * 3;
    cx[0] = 1;
    cy[0] = 0;
    cz[0] = 0;
    cx[1] = 0;
    cy[1] = 1;
    cz[1] = 0;
    cx[2] = 0;
    cy[2] = 0;
    cz[2] = 1;
    const px0 = st.x[xj] as number;
    const py0 = st.x[xj + 1] as number;
    const pz0 = st.x[xj + 2] as number;
    {
      const rx = px0 - (st.pos[pb] as number);
      const ry = py0 - (st.pos[pb + 1] as number);
      const rz = pz0 - (st.pos[pb + 2] as number);
      cx[3] = 0;
      cy[3] = -rz;
      cz[3] = ry;
      cx[4] = rz;
      cy[4] = 0;
      cz[4] = -rx;
      cx[5] = -ry;
      cy[5] = rx;
      cz[5] = 0;
    }
    const chain = this.data.chains[j]!;
    let c = 6;
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
        cx[c] = s * (ay * rz - az * ry);
        cy[c] = s * (az * rx - ax * rz);
        cz[c] = s * (ax * ry - ay * rx);
        c++;
      }
    }
    return c;
  }

  /**
   * Factors every block with damping `mu` (one value or one per frame) added: sparse Cholesky
   * in tree order, three rows (one bone) at a time, since a bone's three rows share their
   * sparsity; a failed pivot is floored.
   */
  factor(muAll: number | Float64Array, only?: Uint8Array): void {
    for (let f = 0; f < this.t; f++) {
      if (only && !only[f]) continue;
      this.factorFrame(f, typeof muAll === 'number' ? muAll : (muAll[f] as number));
    }
  }

  /** Frame f's block of {@link factor} (a method of its own: it is optimised after a few frames). */
  private factorFrame(f: number, mu: number): void {
    const { n, perm, lo } = this;
    const A = this.blocks;
    const L = this.factors;
    const inv = this.invDiag;
    const damp = this.damp;
    const rb = this.rowBase;
    const lb = f * this.nnz;
    const ib = f * n;
    for (let i0 = 0; i0 < n; i0 += 3) {
      const l = lo[i0] as number;
      const r0 = lb + (rb[i0] as number);
      const r1 = lb + (rb[i0 + 1] as number);
      const r2 = lb + (rb[i0 + 2] as number);
      const a00 = A[r0 + i0] as number;
      const a11 = A[r1 + i0 + 1] as number;
      const a22 = A[r2 + i0 + 2] as number;
      let d0 = a00 + mu * (damp[ib + (perm[i0] as number)] as number);
      let d1 = a11 + mu * (damp[ib + (perm[i0 + 1] as number)] as number);
      let d2 = a22 + mu * (damp[ib + (perm[i0 + 2] as number)] as number);
      for (let j = l; j < i0; j++) {
        const rj = lb + (rb[j] as number);
        let s0 = A[r0 + j] as number;
        let s1 = A[r1 + j] as number;
        let s2 = A[r2 + j] as number;
        for (let q = lo[j] as number; q < j; q++) {
          const v = L[rj + q] as number;
          s0 -= (L[r0 + q] as number) * v;
          s1 -= (L[r1 + q] as number) * v;
          s2 -= (L[r2 + q] as number) * v;
        }
        const iv = inv[ib + j] as number;
        s0 *= iv;
        s1 *= iv;
        s2 *= iv;
        L[r0 + j] = s0;
        L[r1 + j] = s1;
        L[r2 + j] = s2;
        d0 -= s0 * s0;
        d1 -= s1 * s1;
        d2 -= s2 * s2;
      }
      // The bone's own 3 x 3 triangle (a Cholesky step in place in the compact factor, not a
      // 3 x 3 product: nothing here that @mocap/anim-loop's mat3 offers).
      const l00 = Math.sqrt(Math.max(d0, 1e-12 * Math.abs(a00) + 1e-300));
      const inv0 = 1 / l00;
      let s10 = A[r1 + i0] as number;
      let s20 = A[r2 + i0] as number;
      let s21 = A[r2 + i0 + 1] as number;
      for (let q = l; q < i0; q++) {
        const v0 = L[r0 + q] as number;
        const v2 = L[r2 + q] as number;
        s10 -= (L[r1 + q] as number) * v0;
        s20 -= v2 * v0;
        s21 -= v2 * (L[r1 + q] as number);
      }
      const l10 = s10 * inv0;
      const l11 = Math.sqrt(Math.max(d1 - l10 * l10, 1e-12 * Math.abs(a11) + 1e-300));
      const inv1 = 1 / l11;
      const l20 = s20 * inv0;
      const l21 = (s21 - l20 * l10) * inv1;
      const l22 = Math.sqrt(Math.max(d2 - l20 * l20 - l21 * l21, 1e-12 * Math.abs(a22) + 1e-300));
      L[r0 + i0] = l00;
      L[r1 + i0] = l10;
      L[r1 + i0 + 1] = l11;
      L[r2 + i0] = l20;
      L[r2 + i0 + 1] = l21;
      L[r2 + i0 + 2] = l22;
      inv[ib + i0] = inv0;
      inv[ib + i0 + 1] = inv1;
      inv[ib + i0 + 2] = 1 / l22;
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
      this.solveInPlace(f, x, o);
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
      this.solveInPlace(f, y, 0);
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

  /**
   * Solves frame f's factored block in place on y[yo..yo+n] (elimination order): forward then
   * backward substitution, three rows (one bone) at a time.
   */
  private solveInPlace(f: number, y: Float64Array, yo: number): void {
    const { n, lo } = this;
    const L = this.factors;
    const inv = this.invDiag;
    const lb = f * this.nnz;
    const ib = f * n;
    const rb = this.rowBase;
    for (let i0 = 0; i0 < n; i0 += 3) {
      const r0 = lb + (rb[i0] as number);
      const r1 = lb + (rb[i0 + 1] as number);
      const r2 = lb + (rb[i0 + 2] as number);
      let s0 = y[yo + i0] as number;
      let s1 = y[yo + i0 + 1] as number;
      let s2 = y[yo + i0 + 2] as number;
      for (let q = lo[i0] as number; q < i0; q++) {
        const v = y[yo + q] as number;
        s0 -= (L[r0 + q] as number) * v;
        s1 -= (L[r1 + q] as number) * v;
        s2 -= (L[r2 + q] as number) * v;
      }
      const y0 = s0 * (inv[ib + i0] as number);
      const y1 = (s1 - (L[r1 + i0] as number) * y0) * (inv[ib + i0 + 1] as number);
      y[yo + i0] = y0;
      y[yo + i0 + 1] = y1;
      y[yo + i0 + 2] =
        (s2 - (L[r2 + i0] as number) * y0 - (L[r2 + i0 + 1] as number) * y1) * (inv[ib + i0 + 2] as number);
    }
    for (let i0 = n - 3; i0 >= 0; i0 -= 3) {
      const r0 = lb + (rb[i0] as number);
      const r1 = lb + (rb[i0 + 1] as number);
      const r2 = lb + (rb[i0 + 2] as number);
      const y2 = (y[yo + i0 + 2] as number) * (inv[ib + i0 + 2] as number);
      const y1 =
        ((y[yo + i0 + 1] as number) - (L[r2 + i0 + 1] as number) * y2) * (inv[ib + i0 + 1] as number);
      const y0 =
        ((y[yo + i0] as number) - (L[r1 + i0] as number) * y1 - (L[r2 + i0] as number) * y2) *
        (inv[ib + i0] as number);
      y[yo + i0] = y0;
      y[yo + i0 + 1] = y1;
      y[yo + i0 + 2] = y2;
      for (let q = lo[i0] as number; q < i0; q++) {
        y[yo + q] =
          (y[yo + q] as number) -
          (L[r0 + q] as number) * y0 -
          (L[r1 + q] as number) * y1 -
          (L[r2 + q] as number) * y2;
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
      this.solveInPlace(f, y, 0);
      for (let i = 0; i < n; i++) out[o + (perm[i] as number)] = y[i] as number;
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

/** The diagonal of D^T D at frame f of t (D: the order-`order` differences): the squared coefficients of the windows covering f. */
function diffDiagonal(f: number, order: 1 | 2 | 3 | 4, t: number): number {
  const c = DIFF[order];
  let s = 0;
  for (let q = 0; q <= order; q++) if (f - q >= 0 && f - q + order < t) s += (c[q] as number) ** 2;
  return s;
}

/**
 * Adds the lower triangle of one keypoint's J^T W J (c columns, W = diag(wx, wy, wz)) into a
 * block at `base`, at the precomputed `entries` (pair (p, q <= p) in loop order).
 */
function addGram(
  a: Float64Array,
  base: number,
  entries: Int32Array,
  c: number,
  wx: number,
  wy: number,
  wz: number,
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
): void {
  // Columns 0-2 are the root translation's unit vectors: their pairs are the weights alone.
  a[base + (entries[0] as number)] = (a[base + (entries[0] as number)] as number) + wx;
  a[base + (entries[2] as number)] = (a[base + (entries[2] as number)] as number) + wy;
  a[base + (entries[5] as number)] = (a[base + (entries[5] as number)] as number) + wz;
  let e = 6;
  for (let p = 3; p < c; p++) {
    const qx = wx * (cx[p] as number);
    const qy = wy * (cy[p] as number);
    const qz = wz * (cz[p] as number);
    const e0 = base + (entries[e] as number);
    const e1 = base + (entries[e + 1] as number);
    const e2 = base + (entries[e + 2] as number);
    a[e0] = (a[e0] as number) + qx;
    a[e1] = (a[e1] as number) + qy;
    a[e2] = (a[e2] as number) + qz;
    e += 3;
    for (let q = 3; q <= p; q++) {
      const at = base + (entries[e++] as number);
      a[at] = (a[at] as number) + qx * (cx[q] as number) + qy * (cy[q] as number) + qz * (cz[q] as number);
    }
  }
}

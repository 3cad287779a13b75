/**
 * Where a frame's n x n Hessian block and its Cholesky factor keep their entries: an elimination
 * order without fill (the bones in post-order, the root last) and the compact lower triangle it
 * allows (row i holds positions lo[i]..i, at `rowBase[i] + q`).
 */
export interface FrameBlockLayout {
  /** Variables per frame. */
  readonly n: number;
  /** Entries of one frame's compact factor. */
  readonly nnz: number;
  /** Elimination order (leaves first, the root last): `perm[position] = variable`. */
  readonly perm: Int32Array;
  /** Variable -> elimination position. */
  readonly pos: Int32Array;
  /**
   * Per position, the first position its factor row can be non-zero at: the bones are in
   * post-order, so a bone's descendants are the contiguous run of positions just before it.
   */
  readonly lo: Int32Array;
  /** Row i of the compact factor starts at `rowBase[i] + lo[i]`. */
  readonly rowBase: Int32Array;
}

/** Layouts already built, per rig (its `parent` array). */
const layouts = new WeakMap<Int32Array, FrameBlockLayout>();

/**
 * The {@link FrameBlockLayout} of a rig of `b` bones (`parent[i]`, root first) with `n` variables
 * per frame, built once per rig: a second layout object of the same rig, made after the solves
 * were compiled against the first, widened its fields' types and threw that code away.
 */
export function frameBlockLayout(parent: Int32Array, b: number, n: number): FrameBlockLayout {
  const known = layouts.get(parent);
  if (known?.n === n) return known;
  const lay = buildLayout(parent, b, n);
  layouts.set(parent, lay);
  return lay;
}

function buildLayout(parent: Int32Array, b: number, n: number): FrameBlockLayout {
  // Variables of bone b (root: trans + rotation) sit in its slot. Eliminating bones in
  // post-order (children before parents, the root last) creates no fill: a variable only
  // couples to its own bone's, its ancestors' and its descendants', and the descendants of a
  // bone are exactly the positions between the start of its subtree and itself.
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
  const perm = Int32Array.from(order);
  // The factor and the solves work a bone (three positions sharing their sparsity) at a time.
  for (let i = 0; i < n; i += 3) {
    if (lo[i] !== lo[i + 1] || lo[i] !== lo[i + 2])
      throw new Error('BlockPreconditioner: bone rows out of step.');
  }
  const rowBase = new Int32Array(n);
  let off = 0;
  for (let i = 0; i < n; i++) {
    rowBase[i] = off - (lo[i] as number);
    off += i - (lo[i] as number) + 1;
  }
  const pos = new Int32Array(n);
  for (let i = 0; i < n; i++) pos[perm[i] as number] = i;
  return { n, nnz: off, perm, pos, lo: Int32Array.from(lo), rowBase };
}

/**
 * Factors frame f's block of `A` (compact, at `f * lay.nnz`) with `mu` times its damping diagonal
 * `damp` (T x n, variable order) added, into `L` and `inv` (1 / the factor's diagonal, T x n):
 * sparse Cholesky in tree order, three rows (one bone) at a time, since a bone's three rows share
 * their sparsity; a failed pivot is floored.
 */
export function factorFrameBlock(
  lay: FrameBlockLayout,
  A: Float64Array,
  damp: Float64Array,
  L: Float64Array,
  inv: Float64Array,
  f: number,
  mu: number,
): void {
  const { n, perm, lo } = lay;
  const rb = lay.rowBase;
  const lb = f * lay.nnz;
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
 * Solves frame f's factored block in place on y[yo..yo+n] (elimination order): forward then
 * backward substitution, three rows (one bone) at a time.
 */
export function solveFrameBlock(
  lay: FrameBlockLayout,
  L: Float64Array,
  inv: Float64Array,
  f: number,
  y: Float64Array,
  yo: number,
): void {
  const { n, lo } = lay;
  const lb = f * lay.nnz;
  const ib = f * n;
  const rb = lay.rowBase;
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
    const y1 = ((y[yo + i0 + 1] as number) - (L[r2 + i0 + 1] as number) * y2) * (inv[ib + i0 + 1] as number);
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

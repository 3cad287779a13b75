import type { SkinnedMesh } from './skinned-mesh.js';
import type { SurfaceSamples } from './surface-samples.js';

/**
 * The normal equations of the chamfer objective, built per surface sample from per-vertex
 * Jacobians. A sample is a fixed barycentric mix of its triangle's skinned vertices, so its
 * Jacobian is the same mix of theirs: each vertex's 3 x P Jacobian (d position / d params:
 * translation, then a rotation vector per free joint, `a_k x (p - o_j)` per joint axis) is
 * computed once per evaluation, on first use, instead of once per sample, view and residual.
 * A sample's residual rows then add `J^T M J` (M: the 2 x 2 sum of the residuals' weighted
 * projection outer products) over the triangle's columns only, into one compact n x n
 * accumulator per distinct column set (contiguous writes); `finish` scatters them into H's upper
 * triangle once per evaluation.
 *
 * ```ts
 * const vj = new VertexJacobians(mesh, samples, paramOf, params);
 * vj.begin(world, skin, verts, root); // once per evaluation, after skinning
 * vj.addSample(s, 0, m00, m01, m11, g0, g1);
 * vj.finish(h, g);
 * ```
 */
export class VertexJacobians {
  /** Per vertex, 3 x P rows (world x, y, z); entries off the vertex's joints stay 0. */
  private readonly jv: Float64Array;
  private readonly stamp: Int32Array;
  private epoch = 0;
  /** Per triangle, the free-joint columns any of its vertices moves with, ascending (CSR). */
  private readonly faceStart: Int32Array;
  private readonly faceCols: Int32Array;
  private readonly perFace: number;
  /** Normalised joint axes of the evaluation, J x 9 (axis k at 3k). */
  private readonly axes: Float64Array;
  private readonly acc: Float64Array;
  private readonly touched: Int32Array;
  private readonly ju: Float64Array;
  private readonly jz: Float64Array;
  private readonly t0: Float64Array;
  private readonly t1: Float64Array;
  /** Per triangle, its column signature; per signature: size n, accumulator offset (n x n H, then n g), columns. */
  private readonly faceSig: Int32Array;
  private readonly sigN: Int32Array;
  private readonly sigAt: Int32Array;
  private readonly sigColsAt: Int32Array;
  private readonly sigCols: Int32Array;
  private readonly sigAcc: Float64Array;
  private readonly sigStamp: Int32Array;
  private readonly sigUsed: Int32Array;
  private usedCount = 0;
  private world: Float64Array = new Float64Array(0);
  private skin: Float64Array = new Float64Array(0);
  private verts: Float64Array = new Float64Array(0);
  private root: Float64Array = new Float64Array(16);

  constructor(
    private readonly mesh: SkinnedMesh,
    private readonly samples: SurfaceSamples,
    private readonly paramOf: Int32Array,
    private readonly params: number,
    private readonly zoomParam = -1,
  ) {
    const nj = mesh.jointNames.length;
    const P = params;
    this.jv = new Float64Array(mesh.vertexCount * 3 * P);
    this.stamp = new Int32Array(mesh.vertexCount);
    this.axes = new Float64Array(nj * 9);
    this.acc = new Float64Array(nj * 4);
    this.touched = new Int32Array(nj);
    this.ju = new Float64Array(P);
    this.jz = new Float64Array(P);
    this.t0 = new Float64Array(P);
    this.t1 = new Float64Array(P);
    const faces = mesh.indices.length / 3;
    this.perFace = faces > 0 ? samples.count / faces : 1;
    const start = new Int32Array(faces + 1);
    const cols: number[] = [];
    const mark = new Uint8Array(P);
    for (let t = 0; t < faces; t++) {
      start[t] = cols.length;
      mark.fill(0);
      for (let c = 0; c < 3; c++) {
        const v = mesh.indices[3 * t + c];
        for (let q = 0; q < 4; q++) {
          if (mesh.weights[4 * v + q] === 0) continue;
          for (let j = mesh.joints[4 * v + q]; j >= 0; j = mesh.parent[j]) {
            const p = paramOf[j];
            if (p >= 0) mark[p] = mark[p + 1] = mark[p + 2] = 1;
          }
        }
      }
      for (let p = 3; p < P; p++) if (mark[p]) cols.push(p);
      // every vertex moves with the zoom (the last column, so the list stays ascending)
      if (zoomParam >= 0) cols.push(zoomParam);
    }
    start[faces] = cols.length;
    this.faceStart = start;
    this.faceCols = Int32Array.from(cols);
    // faces with the same columns share one compact accumulator (n x n, n = 3 + columns)
    const ids = new Map<string, number>();
    const sigCols: number[][] = [];
    this.faceSig = new Int32Array(faces);
    for (let t = 0; t < faces; t++) {
      const list = cols.slice(start[t], start[t + 1]);
      const key = list.join(',');
      let id = ids.get(key);
      if (id === undefined) {
        id = sigCols.length;
        ids.set(key, id);
        sigCols.push(list);
      }
      this.faceSig[t] = id;
    }
    const S = sigCols.length;
    this.sigN = new Int32Array(S);
    this.sigAt = new Int32Array(S);
    this.sigColsAt = new Int32Array(S);
    const flat: number[] = [];
    let size = 0;
    for (let k = 0; k < S; k++) {
      const n = 3 + sigCols[k].length;
      this.sigN[k] = n;
      this.sigAt[k] = size;
      size += n * n + n;
      this.sigColsAt[k] = flat.length;
      flat.push(0, 1, 2, ...sigCols[k]);
    }
    this.sigCols = Int32Array.from(flat);
    this.sigAcc = new Float64Array(size);
    this.sigStamp = new Int32Array(S);
    this.sigUsed = new Int32Array(S);
  }

  /**
   * Starts an evaluation at the joints' `world` and skinning `skin` matrices (J x 16), the skinned
   * `verts` (N x 3) and the pose's `root` matrix (the zoom's centre is its origin); all kept by reference.
   */
  begin(world: Float64Array, skin: Float64Array, verts: Float64Array, root: Float64Array): void {
    this.world = world;
    this.skin = skin;
    this.verts = verts;
    this.root = root;
    this.epoch++;
    this.usedCount = 0;
    const nj = this.mesh.jointNames.length;
    for (let j = 0; j < nj; j++) {
      for (let k = 0; k < 3; k++) {
        const o = 16 * j + 4 * k;
        const ax = world[o];
        const ay = world[o + 1];
        const az = world[o + 2];
        const n = Math.hypot(ax, ay, az) || 1;
        this.axes[9 * j + 3 * k] = ax / n;
        this.axes[9 * j + 3 * k + 1] = ay / n;
        this.axes[9 * j + 3 * k + 2] = az / n;
      }
    }
  }

  /** Fills vertex v's Jacobian rows for this evaluation (once). */
  private vertex(v: number): void {
    if (this.stamp[v] === this.epoch) return;
    this.stamp[v] = this.epoch;
    const mesh = this.mesh;
    const acc = this.acc;
    const sk = this.skin;
    const px = mesh.positions[3 * v];
    const py = mesh.positions[3 * v + 1];
    const pz = mesh.positions[3 * v + 2];
    let nt = 0;
    for (let q = 0; q < 4; q++) {
      const wgt = mesh.weights[4 * v + q];
      if (wgt === 0) continue;
      const i = mesh.joints[4 * v + q];
      const o = 16 * i;
      const yx = sk[o] * px + sk[o + 4] * py + sk[o + 8] * pz + sk[o + 12];
      const yy = sk[o + 1] * px + sk[o + 5] * py + sk[o + 9] * pz + sk[o + 13];
      const yz = sk[o + 2] * px + sk[o + 6] * py + sk[o + 10] * pz + sk[o + 14];
      for (let j = i; j >= 0; j = mesh.parent[j]) {
        if (this.paramOf[j] < 0) continue;
        if (acc[4 * j + 3] === 0) this.touched[nt++] = j;
        acc[4 * j] += wgt * yx;
        acc[4 * j + 1] += wgt * yy;
        acc[4 * j + 2] += wgt * yz;
        acc[4 * j + 3] += wgt;
      }
    }
    const P = this.params;
    const base = 3 * P * v;
    const jv = this.jv;
    const w = this.world;
    const zc = this.zoomParam;
    if (zc >= 0) {
      jv[base + zc] = this.verts[3 * v] - this.root[12];
      jv[base + P + zc] = this.verts[3 * v + 1] - this.root[13];
      jv[base + 2 * P + zc] = this.verts[3 * v + 2] - this.root[14];
    }
    for (let t = 0; t < nt; t++) {
      const j = this.touched[t];
      const W = acc[4 * j + 3];
      const ux = acc[4 * j] - W * w[16 * j + 12];
      const uy = acc[4 * j + 1] - W * w[16 * j + 13];
      const uz = acc[4 * j + 2] - W * w[16 * j + 14];
      acc[4 * j] = 0;
      acc[4 * j + 1] = 0;
      acc[4 * j + 2] = 0;
      acc[4 * j + 3] = 0;
      const p = this.paramOf[j];
      for (let k = 0; k < 3; k++) {
        const ax = this.axes[9 * j + 3 * k];
        const ay = this.axes[9 * j + 3 * k + 1];
        const az = this.axes[9 * j + 3 * k + 2];
        jv[base + p + k] = ay * uz - az * uy;
        jv[base + P + p + k] = az * ux - ax * uz;
        jv[base + 2 * P + p + k] = ax * uy - ay * ux;
      }
    }
  }

  /**
   * Adds sample `s` seen in `view` (0: front, its column is world x; 1: side, world y; rows are
   * world z) to the normal equations: `H += J^T M J`, `g += J^T (g0, g1)` with J the sample's
   * (column, row) Jacobian rows and M = [[m00, m01], [m01, m11]], into its column set's
   * accumulator ({@link VertexJacobians.finish} adds them to H and g).
   */
  addSample(s: number, view: number, m00: number, m01: number, m11: number, g0: number, g1: number): void {
    const P = this.params;
    const { tri, bary } = this.samples;
    const v0 = tri[3 * s];
    const v1 = tri[3 * s + 1];
    const v2 = tri[3 * s + 2];
    this.vertex(v0);
    this.vertex(v1);
    this.vertex(v2);
    const b0 = bary[3 * s];
    const b1 = bary[3 * s + 1];
    const b2 = bary[3 * s + 2];
    const face = Math.floor(s / this.perFace);
    const c0 = this.faceStart[face];
    const c1 = this.faceStart[face + 1];
    const n = 3 + c1 - c0;
    const sig = this.faceSig[face];
    const at = this.sigAt[sig];
    const acc = this.sigAcc;
    if (this.sigStamp[sig] !== this.epoch) {
      this.sigStamp[sig] = this.epoch;
      this.sigUsed[this.usedCount++] = sig;
      acc.fill(0, at, at + n * n + n);
    }
    const ju = this.ju;
    const jz = this.jz;
    // compact columns: 0..2 the translation, then the face's joint columns
    ju[0] = view === 0 ? 1 : 0;
    ju[1] = view === 0 ? 0 : 1;
    ju[2] = 0;
    jz[0] = 0;
    jz[1] = 0;
    jz[2] = 1;
    const jv = this.jv;
    const ou = view === 0 ? 0 : P;
    const oz = 2 * P;
    const a0 = 3 * P * v0;
    const a1 = 3 * P * v1;
    const a2 = 3 * P * v2;
    const cols = this.faceCols;
    for (let k = c0; k < c1; k++) {
      const c = cols[k];
      const i = 3 + k - c0;
      ju[i] = b0 * jv[a0 + ou + c] + b1 * jv[a1 + ou + c] + b2 * jv[a2 + ou + c];
      jz[i] = b0 * jv[a0 + oz + c] + b1 * jv[a1 + oz + c] + b2 * jv[a2 + oz + c];
    }
    const t0 = this.t0;
    const t1 = this.t1;
    for (let i = 0; i < n; i++) {
      t0[i] = m00 * ju[i] + m01 * jz[i];
      t1[i] = m01 * ju[i] + m11 * jz[i];
    }
    const ga = at + n * n;
    for (let a = 0; a < n; a++) {
      const ua = ju[a];
      const za = jz[a];
      acc[ga + a] += g0 * ua + g1 * za;
      const row = at + a * n;
      for (let b = a; b < n; b++) acc[row + b] += ua * t0[b] + za * t1[b];
    }
  }

  /** Adds the samples accumulated since {@link VertexJacobians.begin} to `h` (upper triangle) and `g`. */
  finish(h: Float64Array, g: Float64Array): void {
    const P = this.params;
    const acc = this.sigAcc;
    for (let u = 0; u < this.usedCount; u++) {
      const sig = this.sigUsed[u];
      const n = this.sigN[sig];
      const at = this.sigAt[sig];
      const cc = this.sigColsAt[sig];
      const cols = this.sigCols;
      for (let a = 0; a < n; a++) {
        const ca = cols[cc + a];
        g[ca] += acc[at + n * n + a];
        const row = ca * P;
        for (let b = a; b < n; b++) h[row + cols[cc + b]] += acc[at + a * n + b];
      }
    }
    this.usedCount = 0;
  }
}

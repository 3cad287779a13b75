import type { SkinnedMesh } from './skinned-mesh.js';
import type { SurfaceSamples } from './surface-samples.js';

/**
 * The normal equations of the chamfer objective, built per surface sample. A sample's position p
 * is a fixed barycentric mix of its triangle's skinned vertices. For every joint j that all of
 * the triangle's weights hang under (its "rigid" joints: the root down to the deepest common
 * ancestor), the sample moves as `a_k x (p - o_j)` per joint axis, which is `X(p) B_j` with
 * `X(p) = [I, -[d]x, d]` (d = p - c, c the rig's zoom centre; the last column is the zoom's) a
 * 3 x 7 matrix of the sample alone and B_j a 7 x 3 block of the joint alone. So a triangle's
 * rigid columns are summed as 7 "moment" columns (`X^T M X`, 28 numbers a sample, whatever the
 * chain's length) and mapped onto the joints once per evaluation (`B^T A B`, in `finish`). The
 * joints a triangle's vertices blend between (their weights partly under the joint) keep
 * per-vertex Jacobians (3 x P, `a_k x u_j` with u_j the weighted offsets of the vertex's
 * influences under j, computed once per evaluation on first use) mixed per sample. Triangles with
 * the same rigid and blended column sets share one compact accumulator ((K + m) x (K + m), K = 7 or
 * 6 without the zoom, m blended columns; contiguous writes).
 *
 * ```ts
 * const vj = new VertexJacobians(mesh, samples, paramOf, params);
 * vj.begin(world, skin, verts, root); // once per evaluation, after skinning
 * vj.addSample(s, 0, m00, m01, m11, g0, g1);
 * vj.finish(h, g);
 * ```
 */
export class VertexJacobians {
  /** Per vertex, 3 x P rows (world x, y, z); entries off the vertex's blended joints stay 0. */
  private readonly jv: Float64Array;
  private readonly stamp: Int32Array;
  private epoch = 0;
  private readonly perFace: number;
  /** Moment columns: 7 with the zoom, else 6. */
  private readonly K: number;
  /** Normalised joint axes of the evaluation, J x 9 (axis k at 3k). */
  private readonly axes: Float64Array;
  /** Per parameter column, its 7-row block of B (the moment columns' map onto it), this evaluation. */
  private readonly colB: Float64Array;
  private readonly acc: Float64Array;
  private readonly touched: Int32Array;
  private readonly ju: Float64Array;
  private readonly jz: Float64Array;
  private readonly t0: Float64Array;
  private readonly t1: Float64Array;
  private readonly tb: Float64Array;
  /** Joints a vertex's Jacobian rows hold (blended in some triangle of the vertex), per vertex j flags. */
  private readonly blendedAt: Uint8Array;
  /** Per triangle, its group; per group: blended columns m, accumulator offset, rigid and blended column lists. */
  private readonly faceGroup: Int32Array;
  private readonly groupM: Int32Array;
  private readonly groupAt: Int32Array;
  private readonly rigidStart: Int32Array;
  private readonly rigidCols: Int32Array;
  private readonly blendStart: Int32Array;
  private readonly blendCols: Int32Array;
  private readonly groupAcc: Float64Array;
  private readonly groupStamp: Int32Array;
  private readonly groupUsed: Int32Array;
  private usedCount = 0;
  private world: Float64Array = new Float64Array(0);
  private skin: Float64Array = new Float64Array(0);
  private verts: Float64Array = new Float64Array(0);
  private cx = 0;
  private cy = 0;
  private cz = 0;

  constructor(
    private readonly mesh: SkinnedMesh,
    private readonly samples: SurfaceSamples,
    private readonly paramOf: Int32Array,
    private readonly params: number,
    private readonly zoomParam = -1,
  ) {
    const nj = mesh.jointNames.length;
    const P = params;
    this.K = zoomParam >= 0 ? 7 : 6;
    this.jv = new Float64Array(mesh.vertexCount * 3 * P);
    this.stamp = new Int32Array(mesh.vertexCount);
    this.axes = new Float64Array(nj * 9);
    this.colB = new Float64Array(P * 7);
    this.acc = new Float64Array(nj * 4);
    this.touched = new Int32Array(nj);
    this.ju = new Float64Array(P + 7);
    this.jz = new Float64Array(P + 7);
    this.t0 = new Float64Array(P + 7);
    this.t1 = new Float64Array(P + 7);
    this.tb = new Float64Array(7 * P);
    this.blendedAt = new Uint8Array(mesh.vertexCount * nj);
    const faces = mesh.indices.length / 3;
    this.perFace = faces > 0 ? samples.count / faces : 1;
    // per triangle: joints under which all its vertices' weights hang (rigid), and those under
    // which only part of them do (blended); their free columns, ascending
    const count = new Int32Array(nj);
    const rigidFlag = new Uint8Array(nj);
    const seen = new Int32Array(nj).fill(-1);
    const seenByVertex = new Int32Array(nj).fill(-1);
    const ids = new Map<string, number>();
    const groups: { rigid: number[]; blend: number[] }[] = [];
    this.faceGroup = new Int32Array(faces);
    for (let t = 0; t < faces; t++) {
      const chain: number[] = [];
      for (let c = 0; c < 3; c++) {
        const v = mesh.indices[3 * t + c];
        const mark = 3 * t + c;
        const mine: number[] = [];
        let infl = 0;
        for (let q = 0; q < 4; q++) {
          if (mesh.weights[4 * v + q] === 0) continue;
          infl++;
          for (let j = mesh.joints[4 * v + q]; j >= 0; j = mesh.parent[j]) {
            if (seenByVertex[j] !== mark) {
              seenByVertex[j] = mark;
              count[j] = 0;
              mine.push(j);
            }
            count[j]++;
          }
        }
        for (const j of mine) {
          if (seen[j] !== t) {
            seen[j] = t;
            chain.push(j);
            // first met at a later vertex: an earlier one has none of its weight under it
            rigidFlag[j] = c === 0 ? 1 : 0;
          }
          // rigid only while every influence of every vertex hangs under it
          if (count[j] !== infl) rigidFlag[j] = 0;
        }
        for (const j of chain) if (seenByVertex[j] !== mark) rigidFlag[j] = 0;
      }
      const rigid = [0, 1, 2];
      const blend: number[] = [];
      for (const j of chain.sort((a, b) => paramOf[a] - paramOf[b])) {
        const p = paramOf[j];
        if (p < 0) continue;
        const list = rigidFlag[j] ? rigid : blend;
        list.push(p, p + 1, p + 2);
        if (!rigidFlag[j]) for (let c = 0; c < 3; c++) this.blendedAt[mesh.indices[3 * t + c] * nj + j] = 1;
      }
      if (zoomParam >= 0) rigid.push(zoomParam);
      const key = `${rigid.join(',')}|${blend.join(',')}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = groups.length;
        ids.set(key, id);
        groups.push({ rigid, blend });
      }
      this.faceGroup[t] = id;
    }
    const G = groups.length;
    this.groupM = new Int32Array(G);
    this.groupAt = new Int32Array(G);
    this.rigidStart = new Int32Array(G + 1);
    this.blendStart = new Int32Array(G + 1);
    const rc: number[] = [];
    const bc: number[] = [];
    let size = 0;
    for (let k = 0; k < G; k++) {
      const n = this.K + groups[k].blend.length;
      this.groupM[k] = groups[k].blend.length;
      this.groupAt[k] = size;
      size += n * n + n;
      this.rigidStart[k] = rc.length;
      this.blendStart[k] = bc.length;
      rc.push(...groups[k].rigid);
      bc.push(...groups[k].blend);
    }
    this.rigidStart[G] = rc.length;
    this.blendStart[G] = bc.length;
    this.rigidCols = Int32Array.from(rc);
    this.blendCols = Int32Array.from(bc);
    this.groupAcc = new Float64Array(size);
    this.groupStamp = new Int32Array(G);
    this.groupUsed = new Int32Array(G);
  }

  /**
   * Starts an evaluation at the joints' `world` and skinning `skin` matrices (J x 16), the skinned
   * `verts` (N x 3) and the pose's `root` matrix (the zoom's centre is its origin); all kept by reference.
   */
  begin(world: Float64Array, skin: Float64Array, verts: Float64Array, root: Float64Array): void {
    this.world = world;
    this.skin = skin;
    this.verts = verts;
    this.cx = root[12];
    this.cy = root[13];
    this.cz = root[14];
    this.epoch++;
    this.usedCount = 0;
    const nj = this.mesh.jointNames.length;
    const B = this.colB;
    B.fill(0);
    // translation: X's identity columns; zoom: X's last column
    for (let k = 0; k < 3; k++) B[7 * k + k] = 1;
    if (this.zoomParam >= 0) B[7 * this.zoomParam + 6] = 1;
    for (let j = 0; j < nj; j++) {
      const ox = world[16 * j + 12] - this.cx;
      const oy = world[16 * j + 13] - this.cy;
      const oz = world[16 * j + 14] - this.cz;
      const p = this.paramOf[j];
      for (let k = 0; k < 3; k++) {
        const o = 16 * j + 4 * k;
        const n = Math.hypot(world[o], world[o + 1], world[o + 2]) || 1;
        const ax = world[o] / n;
        const ay = world[o + 1] / n;
        const az = world[o + 2] / n;
        this.axes[9 * j + 3 * k] = ax;
        this.axes[9 * j + 3 * k + 1] = ay;
        this.axes[9 * j + 3 * k + 2] = az;
        if (p < 0) continue;
        // a x (p - o) = (o - c) x a + a x d: rows 0-2 (o - c) x a, rows 3-5 a
        const b = 7 * (p + k);
        B[b] = oy * az - oz * ay;
        B[b + 1] = oz * ax - ox * az;
        B[b + 2] = ox * ay - oy * ax;
        B[b + 3] = ax;
        B[b + 4] = ay;
        B[b + 5] = az;
      }
    }
  }

  /** Fills vertex v's Jacobian rows of its blended joints for this evaluation (once). */
  private vertex(v: number): void {
    if (this.stamp[v] === this.epoch) return;
    this.stamp[v] = this.epoch;
    const mesh = this.mesh;
    const nj = mesh.jointNames.length;
    const acc = this.acc;
    const sk = this.skin;
    const px = mesh.positions[3 * v];
    const py = mesh.positions[3 * v + 1];
    const pz = mesh.positions[3 * v + 2];
    const blended = this.blendedAt;
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
        if (this.paramOf[j] < 0 || blended[v * nj + j] === 0) continue;
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
   * (column, row) Jacobian rows and M = [[m00, m01], [m01, m11]], into its group's accumulator
   * ({@link VertexJacobians.finish} adds them to H and g).
   */
  addSample(s: number, view: number, m00: number, m01: number, m11: number, g0: number, g1: number): void {
    const P = this.params;
    const { tri, bary } = this.samples;
    const v0 = tri[3 * s];
    const v1 = tri[3 * s + 1];
    const v2 = tri[3 * s + 2];
    const b0 = bary[3 * s];
    const b1 = bary[3 * s + 1];
    const b2 = bary[3 * s + 2];
    const group = this.faceGroup[Math.floor(s / this.perFace)];
    const K = this.K;
    const m = this.groupM[group];
    const n = K + m;
    const at = this.groupAt[group];
    const acc = this.groupAcc;
    if (this.groupStamp[group] !== this.epoch) {
      this.groupStamp[group] = this.epoch;
      this.groupUsed[this.usedCount++] = group;
      acc.fill(0, at, at + n * n + n);
    }
    const vs = this.verts;
    const dx = b0 * vs[3 * v0] + b1 * vs[3 * v1] + b2 * vs[3 * v2] - this.cx;
    const dy = b0 * vs[3 * v0 + 1] + b1 * vs[3 * v1 + 1] + b2 * vs[3 * v2 + 1] - this.cy;
    const dz = b0 * vs[3 * v0 + 2] + b1 * vs[3 * v1 + 2] + b2 * vs[3 * v2 + 2] - this.cz;
    const ju = this.ju;
    const jz = this.jz;
    // the moment columns: the view's column row and the z row of X = [I, -[d]x, d]
    if (view === 0) {
      ju[0] = 1;
      ju[1] = 0;
      ju[3] = 0;
      ju[4] = dz;
      ju[5] = -dy;
      ju[6] = dx;
    } else {
      ju[0] = 0;
      ju[1] = 1;
      ju[3] = -dz;
      ju[4] = 0;
      ju[5] = dx;
      ju[6] = dy;
    }
    ju[2] = 0;
    jz[0] = 0;
    jz[1] = 0;
    jz[2] = 1;
    jz[3] = dy;
    jz[4] = -dx;
    jz[5] = 0;
    jz[6] = dz;
    if (m > 0) {
      this.vertex(v0);
      this.vertex(v1);
      this.vertex(v2);
      const jv = this.jv;
      const ou = view === 0 ? 0 : P;
      const oz = 2 * P;
      const a0 = 3 * P * v0;
      const a1 = 3 * P * v1;
      const a2 = 3 * P * v2;
      const cols = this.blendCols;
      const c0 = this.blendStart[group];
      for (let k = 0; k < m; k++) {
        const c = cols[c0 + k];
        ju[K + k] = b0 * jv[a0 + ou + c] + b1 * jv[a1 + ou + c] + b2 * jv[a2 + ou + c];
        jz[K + k] = b0 * jv[a0 + oz + c] + b1 * jv[a1 + oz + c] + b2 * jv[a2 + oz + c];
      }
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
    const K = this.K;
    const acc = this.groupAcc;
    const B = this.colB;
    const tb = this.tb;
    for (let u = 0; u < this.usedCount; u++) {
      const group = this.groupUsed[u];
      const m = this.groupM[group];
      const n = K + m;
      const at = this.groupAt[group];
      const ga = at + n * n;
      const r0 = this.rigidStart[group];
      const nr = this.rigidStart[group + 1] - r0;
      const b0 = this.blendStart[group];
      const rc = this.rigidCols;
      const bc = this.blendCols;
      // tb = A_mm B (K x nr), A_mm the moment block (upper triangle stored)
      for (let x = 0; x < K; x++) {
        for (let r = 0; r < nr; r++) {
          const cb = 7 * rc[r0 + r];
          let s = 0;
          for (let y = 0; y < K; y++) s += (x <= y ? acc[at + x * n + y] : acc[at + y * n + x]) * B[cb + y];
          tb[x * nr + r] = s;
        }
      }
      for (let a = 0; a < nr; a++) {
        const ca = rc[r0 + a];
        const ba = 7 * ca;
        let gs = 0;
        for (let x = 0; x < K; x++) gs += B[ba + x] * acc[ga + x];
        g[ca] += gs;
        // rigid x rigid: B^T A B
        for (let b = a; b < nr; b++) {
          const cb = rc[r0 + b];
          let s = 0;
          for (let x = 0; x < K; x++) s += B[ba + x] * tb[x * nr + b];
          h[ca < cb ? ca * P + cb : cb * P + ca] += s;
        }
        // rigid x blended: B^T A_mb
        for (let b = 0; b < m; b++) {
          const cb = bc[b0 + b];
          let s = 0;
          for (let x = 0; x < K; x++) s += B[ba + x] * acc[at + x * n + K + b];
          h[ca < cb ? ca * P + cb : cb * P + ca] += s;
        }
      }
      // blended x blended: as accumulated (ascending columns)
      for (let a = 0; a < m; a++) {
        const ca = bc[b0 + a];
        g[ca] += acc[ga + K + a];
        const row = at + (K + a) * n + K;
        for (let b = a; b < m; b++) h[ca * P + bc[b0 + b]] += acc[row + b];
      }
    }
    this.usedCount = 0;
  }
}

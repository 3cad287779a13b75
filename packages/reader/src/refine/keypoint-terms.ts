import type { Layout, ViewProjection } from '@mocap/layout';
import { huberCost, huberWeight } from './huber.js';
import type { KeypointTargets } from './keypoint-targets.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * The keypoint (heatmap peak) terms of {@link ChamferObjective}: each peak's point, fixed in its
 * joint's frame, projected into both views against the peak; confidence-weighted, Huber on each
 * residual. Writes their Gauss-Newton normal equations through a sparse point Jacobian (3 x P:
 * the translation and the rotation vectors of the point's free ancestors).
 */
export class KeypointTerms {
  private readonly jx: Float64Array;
  private readonly row: Float64Array;
  private readonly nz: Int32Array;
  private nzCount = 0;

  /**
   * `world` (J x 16) is read at each {@link KeypointTerms.evaluate}: the joints' world matrices of
   * the pose evaluated; `paramOf[j]` is joint j's first parameter, -1 when it is not free;
   * `zoomParam` the zoom's log (-1: fixed), scaled about `root`'s origin (the pose's root matrix,
   * read at each evaluation).
   */
  constructor(
    private readonly mesh: SkinnedMesh,
    private readonly layout: Layout,
    private readonly proj: ViewProjection,
    private readonly world: Float64Array,
    private readonly paramOf: Int32Array,
    private readonly params: number,
    private readonly zoomParam = -1,
    private readonly root: Float64Array | null = null,
  ) {
    this.jx = new Float64Array(3 * params);
    this.row = new Float64Array(params);
    this.nz = new Int32Array(params);
  }

  /**
   * Cost of the peaks `kp` at weight `weight` (times each peak's confidence), Huber threshold
   * `huberPx`; with `h` and `g`, adds their normal equations (upper triangle of `h` only).
   */
  evaluate(kp: KeypointTargets, weight: number, huberPx: number, h?: Float64Array, g?: Float64Array): number {
    const m = this.layout.M_PER_PX;
    const proj = this.proj;
    let cost = 0;
    for (let k = 0; k < kp.joints.length; k++) {
      const jk = kp.joints[k];
      const o = 16 * jk;
      const W = this.world;
      const ox = kp.offsets ? kp.offsets[3 * k] : 0;
      const oy = kp.offsets ? kp.offsets[3 * k + 1] : 0;
      const oz = kp.offsets ? kp.offsets[3 * k + 2] : 0;
      const x = W[o] * ox + W[o + 4] * oy + W[o + 8] * oz + W[o + 12];
      const y = W[o + 1] * ox + W[o + 5] * oy + W[o + 9] * oz + W[o + 13];
      const z = W[o + 2] * ox + W[o + 6] * oy + W[o + 10] * oz + W[o + 14];
      const own = ox !== 0 || oy !== 0 || oz !== 0;
      const uvv = proj.projectTo(kpScratch, 0, x, y, z);
      let hasJ = false;
      for (let view = 0; view < 2; view++) {
        const conf = kp.conf[2 * k + view];
        if (!(conf > 0)) continue;
        const ru = uvv[view] - kp.uv[4 * k + 2 * view];
        const rv = uvv[2] - kp.uv[4 * k + 2 * view + 1];
        const r = Math.hypot(ru, rv);
        const wk = weight * conf;
        cost += wk * huberCost(r, huberPx);
        if (!h || !g) continue;
        if (!hasJ) {
          this.pointJacobian(jk, own, x, y, z);
          hasJ = true;
        }
        const w = wk * huberWeight(r, huberPx);
        this.rowFromProjection(view, view === 0 ? 1 / m : -1 / m, 0);
        this.accumulate(h, g, w, ru);
        this.rowFromProjection(view, 0, -1 / m);
        this.accumulate(h, g, w, rv);
      }
      if (hasJ) this.clearJacobian();
    }
    return cost;
  }

  /**
   * Jacobian of a point (x, y, z) fixed in joint `jk`'s frame: the translation and the rotations
   * of its ancestors (and of `jk` itself when the point is off its origin).
   */
  private pointJacobian(jk: number, own: boolean, x: number, y: number, z: number): void {
    const P = this.params;
    this.nzCount = 0;
    for (let a = 0; a < 3; a++) {
      this.jx[a * P + a] = 1;
      this.nz[this.nzCount++] = a;
    }
    for (let j = own ? jk : this.mesh.parent[jk]; j >= 0; j = this.mesh.parent[j]) {
      if (this.paramOf[j] < 0) continue;
      const o = 16 * j;
      this.crossColumns(j, x - this.world[o + 12], y - this.world[o + 13], z - this.world[o + 14]);
    }
    const zc = this.zoomParam;
    if (zc >= 0 && this.root) {
      this.jx[zc] = x - this.root[12];
      this.jx[P + zc] = y - this.root[13];
      this.jx[2 * P + zc] = z - this.root[14];
      this.nz[this.nzCount++] = zc;
    }
  }

  /** jx[:, paramOf[j] + k] = a_k x u, a_k the k-th unit axis of joint j's world frame. */
  private crossColumns(j: number, ux: number, uy: number, uz: number): void {
    const P = this.params;
    const p = this.paramOf[j];
    const o = 16 * j;
    for (let k = 0; k < 3; k++) {
      let ax = this.world[o + 4 * k];
      let ay = this.world[o + 4 * k + 1];
      let az = this.world[o + 4 * k + 2];
      const n = Math.hypot(ax, ay, az) || 1;
      ax /= n;
      ay /= n;
      az /= n;
      this.jx[p + k] = ay * uz - az * uy;
      this.jx[P + p + k] = az * ux - ax * uz;
      this.jx[2 * P + p + k] = ax * uy - ay * ux;
      this.nz[this.nzCount++] = p + k;
    }
  }

  private clearJacobian(): void {
    const P = this.params;
    for (let k = 0; k < this.nzCount; k++) {
      const c = this.nz[k];
      this.jx[c] = 0;
      this.jx[P + c] = 0;
      this.jx[2 * P + c] = 0;
    }
    this.nzCount = 0;
  }

  /** row = du/dx-weighted rows of jx: `cu` on the view's column axis, `cv` on z. */
  private rowFromProjection(view: number, cu: number, cv: number): void {
    const P = this.params;
    const axis = view === 0 ? 0 : 1;
    for (let k = 0; k < this.nzCount; k++) {
      const c = this.nz[k];
      this.row[c] = cu * this.jx[axis * P + c] + cv * this.jx[2 * P + c];
    }
  }

  private accumulate(h: Float64Array, g: Float64Array, w: number, r: number): void {
    const P = this.params;
    const nz = this.nz;
    const row = this.row;
    for (let a = 0; a < this.nzCount; a++) {
      const ca = nz[a];
      const ra = w * row[ca];
      g[ca] += ra * r;
      // upper triangle only; ChamferObjective mirrors it
      for (let b = a; b < this.nzCount; b++) {
        const cb = nz[b];
        h[ca < cb ? ca * P + cb : cb * P + ca] += ra * row[cb];
      }
    }
  }
}

const kpScratch = new Float64Array(3);

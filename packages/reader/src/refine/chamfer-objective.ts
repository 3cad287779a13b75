import { quatConjugate, quatMultiply } from '@mocap/anim-loop';
import { type Layout, ViewProjection } from '@mocap/layout';
import { z } from 'zod';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { linearBlendSkin } from './linear-blend-skin.js';
import { mat4MulAt } from './mat4-ops.js';
import type { ObservedViews } from './observed-views.js';
import { faceLabels, LABEL_GROUP0 } from './paint-labels.js';
import { createRasterTarget, projectVertices, type RasterTarget, rasterizeDepth } from './rasterize-views.js';
import type { RefinePose } from './refine-pose-state.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { skinningMatrices } from './skinning-matrices.js';
import { type SurfaceSamples, surfaceSamples } from './surface-samples.js';
import { VertexJacobians } from './vertex-jacobians.js';

/** Options of {@link ChamferObjective}; defaults in the schema. */
export const ChamferOptions = z
  .object({
    /** Joints whose rotations are free parameters; every joint when left out. */
    joints: z.array(z.string()).optional(),
    /** Surface samples per triangle (1, 4 or 7). @default 4 */
    samplesPerFace: z.union([z.literal(1), z.literal(4), z.literal(7)]).default(4),
    /** Weight of "model inside the observed masks" (distance of each visible sample to its masks). @default 1 */
    inside: z.number().min(0).default(1),
    /** Weight of "observed boundary covered by the model" (each observed boundary point to the nearest model boundary sample). @default 1 */
    cover: z.number().min(0).default(1),
    /** Weight of the paint-group channels' terms relative to the silhouette's (both inside and cover). @default 1 */
    paint: z.number().min(0).default(1),
    /** Weight of the keypoint (heatmap peak) terms, times each peak's confidence (a few dozen peaks against thousands of mask residuals). @default 10 */
    keypoints: z.number().min(0).default(10),
    /**
     * Weight of the pose prior (see {@link ChamferObjective.setPrior}): cost `0.5 w |log(q_ref^-1 q)|^2`
     * per free joint, radians; 0 turns it off. @default 0
     */
    prior: z.number().min(0).default(0),
    /** Huber threshold on every residual, layout px. @default 10 */
    huberPx: z.number().positive().default(10),
    /** A sample is visible when it lies at most this far (in px of the level) behind the z-buffer. @default 1.5 */
    depthTolerancePx: z.number().min(0).default(1.5),
  })
  .strict();
/** Options of {@link ChamferObjective} as passed in. */
export type ChamferOptions = z.input<typeof ChamferOptions>;

/**
 * Heatmap peaks for the keypoint terms: keypoint k, a point fixed in joint `joints[k]`'s frame
 * (its origin, or `offsets[3k..3k+2]` in the joint's local units, e.g. `(0, length, 0)` for the
 * tail of a bone Blender exported), should project to `uv[4k..4k+3]` (front u, v, side u, v;
 * layout px) with confidences `conf[2k]` (front) and `conf[2k + 1]` (side).
 */
export interface KeypointTargets {
  joints: Int32Array;
  uv: Float64Array;
  conf: Float64Array;
  offsets?: Float64Array;
}

/**
 * The chamfer-style objective of the refinement and its Gauss-Newton normal equations. Given a
 * pose, it skins the mesh, projects surface samples into both views and compares them with
 * {@link ObservedViews}: (1) each visible sample's distance to the observed silhouette and to its
 * own paint group's mask (bilinear in the distance transform), (2) each observed boundary point's
 * offset from the nearest model boundary sample of the same channel, (3) joint origins against
 * heatmap peaks. All residuals are in layout px, Huber-weighted. Parameters: world translation
 * (3) then a rotation vector per free joint (3 each, in the joint's frame; see `applyPoseStep`).
 * Gradients are analytic; visibility and correspondences are found by rasterising the model and
 * held fixed between {@link ChamferObjective.evaluate} calls with `reuse`.
 */
export class ChamferObjective {
  /** Number of parameters: 3 + 3 x free joints. */
  readonly params: number;
  /** Free joint indices, in parameter order. */
  readonly joints: Int32Array;
  readonly samples: SurfaceSamples;
  private readonly o: z.output<typeof ChamferOptions>;
  private readonly paramOf: Int32Array;
  private readonly world: Float64Array;
  private readonly skin: Float64Array;
  private readonly root = new Float64Array(16);
  private readonly shift = new Float64Array(16);
  private readonly verts: Float64Array;
  private readonly vproj: Float64Array;
  private readonly proj: ViewProjection;
  private readonly spos: Float64Array;
  private readonly sproj: Float64Array;
  private readonly faceLabel: Uint8Array;
  private readonly targets = new Map<number, RasterTarget>();
  private readonly jx: Float64Array;
  private readonly row: Float64Array;
  private readonly nz: Int32Array;
  private nzCount = 0;
  private inside: Int32Array;
  private insideCount = 0;
  private cover: Int32Array;
  private coverPts: Float64Array;
  private coverCount = 0;
  private readonly sortU: Float64Array;
  private readonly sortIdx: Int32Array;
  private cand = new Int32Array(0);
  private readonly sortV: Float64Array;
  private readonly sortQ: Int32Array;
  private bucket = new Int32Array(0);
  private candCount = new Int32Array(0);
  private readonly vj: VertexJacobians;

  constructor(
    readonly mesh: SkinnedMesh,
    vertexLabels: Uint8Array,
    readonly layout: Layout,
    options: ChamferOptions = {},
  ) {
    this.o = ChamferOptions.parse(options);
    this.proj = new ViewProjection(layout);
    const nj = mesh.jointNames.length;
    const names = this.o.joints ?? mesh.jointNames;
    this.joints = Int32Array.from(
      names.map((n, i) => {
        const j = mesh.jointNames.indexOf(n);
        if (j < 0)
          throw new Error(
            `ChamferObjective: options.joints[${i}]: "${n}" is not a joint of the skinned mesh.`,
          );
        return j;
      }),
    );
    this.paramOf = new Int32Array(nj).fill(-1);
    this.joints.forEach((j, k) => {
      this.paramOf[j] = 3 + 3 * k;
    });
    this.params = 3 + 3 * this.joints.length;
    this.world = new Float64Array(nj * 16);
    this.skin = new Float64Array(nj * 16);
    this.verts = new Float64Array(mesh.vertexCount * 3);
    this.vproj = new Float64Array(mesh.vertexCount * 3);
    this.faceLabel = faceLabels(mesh.indices, vertexLabels);
    this.samples = surfaceSamples(mesh.indices, this.faceLabel, this.o.samplesPerFace);
    const s = this.samples.count;
    if (s >= 1048576)
      throw new RangeError(`ChamferObjective: ${s} surface samples; at most 1048575 are supported.`);
    this.spos = new Float64Array(s * 3);
    this.sproj = new Float64Array(s * 3);
    this.jx = new Float64Array(3 * this.params);
    this.row = new Float64Array(this.params);
    this.nz = new Int32Array(this.params);
    this.inside = new Int32Array(s * 2);
    this.sortU = new Float64Array(s);
    this.sortIdx = new Int32Array(s);
    this.sortV = new Float64Array(s);
    this.sortQ = new Int32Array(s);
    this.cover = new Int32Array(1024);
    this.coverPts = new Float64Array(2048);
    this.vj = new VertexJacobians(mesh, this.samples, this.paramOf, this.params);
  }

  /**
   * Sets (or clears, with null) the pose the prior pulls the free joints' rotations toward:
   * the previous frame's pose for temporal smoothness, or the rest pose. Its weight is
   * `options.prior`. The pose is copied.
   */
  setPrior(reference: RefinePose | null): void {
    this.priorPose = reference ? Float64Array.from(reference.pose.rotation) : null;
  }

  private priorPose: Float64Array | null = null;

  /** Posed vertices (N x 3, metres) of the last evaluation. */
  get vertices(): Float64Array {
    return this.verts;
  }

  /** World matrices (J x 16) of the last evaluation; a joint's origin is its translation column. */
  get jointWorld(): Float64Array {
    return this.world;
  }

  /**
   * Evaluates the cost `sum rho(r)` at `state` against `observed` (and `keypoints` if given).
   * With `reuse`, the visibility and correspondences of the previous call are kept; otherwise the
   * model is rasterised at the level's resolution to find them. With `h` (P x P, row-major) and
   * `g` (P), also writes the Gauss-Newton normal equations `J^T W J` and the gradient `J^T W r`.
   */
  evaluate(
    state: RefinePose,
    observed: ObservedViews,
    keypoints: KeypointTargets | null,
    reuse: boolean,
    h?: Float64Array,
    g?: Float64Array,
  ): number {
    this.pose(state);
    if (!reuse) this.correspond(observed);
    if (h) h.fill(0);
    if (g) g.fill(0);
    let cost = 0;
    const m = this.layout.M_PER_PX;
    const f = observed.factor;
    const grad = gradScratch;
    const vj = this.vj;
    if (h && g) vj.begin(this.world, this.skin);
    const hub = this.o.huberPx;
    for (let k = 0; k < this.insideCount; k++) {
      const s = this.inside[2 * k];
      const view = this.inside[2 * k + 1];
      const label = this.samples.label[s];
      const u = this.sproj[3 * s + view];
      const v = this.sproj[3 * s + 2];
      // the residuals' weighted projection outer products and gradient weights (see VertexJacobians.addSample)
      let m00 = 0;
      let m01 = 0;
      let m11 = 0;
      let g0 = 0;
      let g1 = 0;
      let any = false;
      for (let c = 0; c < 2; c++) {
        const ch = c === 0 ? 0 : label >= LABEL_GROUP0 ? label - LABEL_GROUP0 + 1 : -1;
        if (ch < 0 || ch >= observed.channels) continue;
        const d = sampleDistance(grad, observed, ch, view, u / f - 0.5, v / f - 0.5);
        if (!Number.isFinite(d) || (d === 0 && grad[0] === 0 && grad[1] === 0)) continue;
        const r = d * f;
        const wi = c === 0 ? this.o.inside : this.o.inside * this.o.paint;
        cost += wi * huberCost(r, hub);
        if (!h || !g) continue;
        const w = wi * huberWeight(r, hub);
        // dr/dx: the distance gradient (per level px, dimensionless) through the projection
        const cu = view === 0 ? grad[0] / m : -grad[0] / m;
        const cv = -grad[1] / m;
        m00 += w * cu * cu;
        m01 += w * cu * cv;
        m11 += w * cv * cv;
        g0 += w * r * cu;
        g1 += w * r * cv;
        any = true;
      }
      if (any) vj.addSample(s, view, m00, m01, m11, g0, g1);
    }
    for (let k = 0; k < this.coverCount; k++) {
      const s = this.cover[2 * k];
      const view = this.cover[2 * k + 1] & 1;
      const wc = this.cover[2 * k + 1] >> 1 === 0 ? this.o.cover : this.o.cover * this.o.paint;
      const ru = this.sproj[3 * s + view] - this.coverPts[2 * k];
      const rv = this.sproj[3 * s + 2] - this.coverPts[2 * k + 1];
      const r = Math.hypot(ru, rv);
      cost += wc * huberCost(r, hub);
      if (!h || !g) continue;
      const w = wc * huberWeight(r, hub);
      const cu = view === 0 ? 1 / m : -1 / m;
      const cv = -1 / m;
      vj.addSample(s, view, w * cu * cu, 0, w * cv * cv, w * ru * cu, w * rv * cv);
    }
    if (h && g) vj.finish(h, g);
    // at weight 0 the peaks add exactly nothing: skip their Jacobians
    if (keypoints && this.o.keypoints > 0) cost += this.keypointTerms(keypoints, h, g);
    if (this.priorPose && this.o.prior > 0) cost += this.priorTerms(state, h, g);
    if (h) this.finishNormal(h);
    return cost;
  }

  private pose(state: RefinePose): void {
    const mesh = this.mesh;
    this.shift.fill(0);
    this.shift[0] = 1;
    this.shift[5] = 1;
    this.shift[10] = 1;
    this.shift[15] = 1;
    this.shift[12] = state.translation[0];
    this.shift[13] = state.translation[1];
    this.shift[14] = state.translation[2];
    mat4MulAt(this.root, 0, this.shift, 0, mesh.toWorld, 0);
    jointWorldMatrices(this.world, mesh, state.pose, this.root);
    skinningMatrices(this.skin, mesh, this.world);
    linearBlendSkin(this.verts, mesh, this.skin);
    const { tri, bary, count } = this.samples;
    const proj = this.proj;
    const spos = this.spos;
    const sproj = this.sproj;
    const verts = this.verts;
    for (let s = 0; s < count; s++) {
      const b0 = bary[3 * s];
      const b1 = bary[3 * s + 1];
      const b2 = bary[3 * s + 2];
      const v0 = 3 * tri[3 * s];
      const v1 = 3 * tri[3 * s + 1];
      const v2 = 3 * tri[3 * s + 2];
      const x = b0 * verts[v0] + b1 * verts[v1] + b2 * verts[v2];
      const y = b0 * verts[v0 + 1] + b1 * verts[v1 + 1] + b2 * verts[v2 + 1];
      const z = b0 * verts[v0 + 2] + b1 * verts[v1 + 2] + b2 * verts[v2 + 2];
      spos[3 * s] = x;
      spos[3 * s + 1] = y;
      spos[3 * s + 2] = z;
      proj.projectTo(sproj, 3 * s, x, y, z);
    }
  }

  /** Rasterises the model at the level's resolution; finds visible samples and cover correspondences. */
  private correspond(obs: ObservedViews): void {
    const f = obs.factor;
    let target = this.targets.get(f);
    if (!target) {
      target = createRasterTarget(this.layout, f);
      this.targets.set(f, target);
    }
    const L = this.layout;
    projectVertices(this.vproj, this.verts, this.mesh.vertexCount, L);
    rasterizeDepth(target, this.verts, this.vproj, this.mesh.indices);
    const tol = this.o.depthTolerancePx * f * L.M_PER_PX;
    const { count, label } = this.samples;
    const w = target.width;
    this.insideCount = 0;
    // visible samples per (channel, view), the candidates of the cover correspondences: list
    // 2 c + view holds its samples at [(2 c + view) count, + candCount[2 c + view])
    const lists = 2 * obs.channels;
    if (this.cand.length < lists * count) this.cand = new Int32Array(lists * count);
    if (this.candCount.length < lists) this.candCount = new Int32Array(lists);
    const candAll = this.cand;
    const candCount = this.candCount;
    candCount.fill(0);
    const sproj = this.sproj;
    const spos = this.spos;
    const inside = this.inside;
    const zbuf = target.depth;
    const sideStart = target.sideStart;
    const height = target.height;
    const channels = obs.channels;
    let ni = 0;
    for (let s = 0; s < count; s++) {
      const y = Math.floor(sproj[3 * s + 2] / f);
      if (y < 0 || y >= height) continue;
      // the sample's channels (see inChannel): the silhouette unless backdrop, and its paint group's
      const l = label[s];
      const paint = l >= LABEL_GROUP0 && l - LABEL_GROUP0 + 1 < channels ? l - LABEL_GROUP0 + 1 : 0;
      for (let view = 0; view < 2; view++) {
        const x = Math.floor(sproj[3 * s + view] / f);
        if (view === 0 ? x < 0 || x >= sideStart : x < sideStart || x >= w) continue;
        const depth = spos[3 * s + (view === 0 ? 1 : 0)];
        if (depth > zbuf[y * w + x] + tol) continue;
        inside[2 * ni] = s;
        inside[2 * ni + 1] = view;
        ni++;
        if (l !== 0) candAll[view * count + candCount[view]++] = s;
        if (paint > 0) {
          const b = 2 * paint + view;
          candAll[b * count + candCount[b]++] = s;
        }
      }
    }
    this.insideCount = ni;
    this.coverCount = 0;
    for (let c = 0; c < obs.channels; c++) {
      for (let view = 0; view < 2; view++) {
        const n = candCount[2 * c + view];
        const cand = candAll.subarray((2 * c + view) * count, (2 * c + view) * count + n);
        const pts = obs.boundary[2 * c + view];
        if (!n || !pts.length) continue;
        // candidates sorted by column: each query scans outward until the column gap alone exceeds its best
        const us = this.sortU;
        const order = this.sortIdx;
        const vs = this.sortV;
        // ordered by (column to 1/16 px, sample): a stable counting sort of the quantised columns
        // (candidates come in sample order); a packed-float sort when the columns spread too far
        const qs = this.sortQ;
        let qmin = Number.POSITIVE_INFINITY;
        let qmax = Number.NEGATIVE_INFINITY;
        for (let k = 0; k < n; k++) {
          const q = Math.floor(Math.min(Math.max(this.sproj[3 * cand[k] + view] + 4096, 0), 65535) * 16);
          qs[k] = q;
          if (q < qmin) qmin = q;
          if (q > qmax) qmax = q;
        }
        const range = qmax - qmin + 1;
        if (range <= 8 * n + 4096) {
          if (this.bucket.length < range + 1) this.bucket = new Int32Array(range + 1);
          const counts = this.bucket;
          counts.fill(0, 0, range + 1);
          for (let k = 0; k < n; k++) counts[qs[k] - qmin + 1]++;
          for (let b = 1; b <= range; b++) counts[b] += counts[b - 1];
          for (let k = 0; k < n; k++) order[counts[qs[k] - qmin]++] = cand[k];
        } else {
          // (column, sample) packed in one float: native numeric sort, no comparator
          const keys = us.subarray(0, n);
          for (let k = 0; k < n; k++) keys[k] = qs[k] * 1048576 + cand[k];
          keys.sort();
          for (let k = 0; k < n; k++) order[k] = keys[k] % 1048576;
        }
        for (let k = 0; k < n; k++) {
          us[k] = this.sproj[3 * order[k] + view];
          vs[k] = this.sproj[3 * order[k] + 2];
        }
        for (let p = 0; p < pts.length / 2; p++) {
          const qu = pts[2 * p];
          const qv = pts[2 * p + 1];
          let lo = 0;
          let hi = n;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (us[mid] < qu) lo = mid + 1;
            else hi = mid;
          }
          let best = order[Math.min(lo, n - 1)];
          let bestD = Number.POSITIVE_INFINITY;
          // keys order the columns to 1/16 px: the stop test allows that much slack
          for (let k = lo; k < n; k++) {
            const du = us[k] - qu;
            const gap = Math.max(0, du - 0.0625);
            if (gap * gap >= bestD) break;
            const dv = vs[k] - qv;
            const d = du * du + dv * dv;
            if (d < bestD) {
              bestD = d;
              best = order[k];
            }
          }
          for (let k = lo - 1; k >= 0; k--) {
            const du = qu - us[k];
            const gap = Math.max(0, du - 0.0625);
            if (gap * gap >= bestD) break;
            const dv = vs[k] - qv;
            const d = du * du + dv * dv;
            if (d < bestD) {
              bestD = d;
              best = order[k];
            }
          }
          this.pushCover(best, view + 2 * c, qu, qv);
        }
      }
    }
  }

  private pushCover(s: number, view: number, qu: number, qv: number): void {
    if (2 * this.coverCount + 2 > this.cover.length) {
      const c = new Int32Array(this.cover.length * 2);
      c.set(this.cover);
      this.cover = c;
      const p = new Float64Array(this.coverPts.length * 2);
      p.set(this.coverPts);
      this.coverPts = p;
    }
    this.cover[2 * this.coverCount] = s;
    this.cover[2 * this.coverCount + 1] = view;
    this.coverPts[2 * this.coverCount] = qu;
    this.coverPts[2 * this.coverCount + 1] = qv;
    this.coverCount++;
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
      // upper triangle only; finishNormal mirrors it
      for (let b = a; b < this.nzCount; b++) {
        const cb = nz[b];
        h[ca < cb ? ca * P + cb : cb * P + ca] += ra * row[cb];
      }
    }
  }

  /** Mirrors the accumulated upper triangle of `h` into the lower one. */
  private finishNormal(h: Float64Array): void {
    const P = this.params;
    for (let i = 0; i < P; i++) for (let j = i + 1; j < P; j++) h[j * P + i] = h[i * P + j];
  }

  private keypointTerms(kp: KeypointTargets, h?: Float64Array, g?: Float64Array): number {
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
        const wk = this.o.keypoints * conf;
        cost += wk * huberCost(r, this.o.huberPx);
        if (!h || !g) continue;
        if (!hasJ) {
          this.pointJacobian(jk, own, x, y, z);
          hasJ = true;
        }
        const w = wk * huberWeight(r, this.o.huberPx);
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
   * Prior residuals r_j = log(q_ref^-1 q_j) (rotation vector, joint frame); with the step
   * q <- q exp(delta), dr/d(delta) = I + [r]x / 2 to first order in r.
   */
  private priorTerms(state: RefinePose, h?: Float64Array, g?: Float64Array): number {
    const ref = this.priorPose!;
    const q = state.pose.rotation;
    const w = this.o.prior;
    const P = this.params;
    let cost = 0;
    for (let k = 0; k < this.joints.length; k++) {
      const o = 4 * this.joints[k];
      // d = conj(ref) * q, XYZW
      const d = quatMultiply(
        priorScratch,
        quatConjugate(priorScratch, ref.subarray(o, o + 4)),
        q.subarray(o, o + 4),
      );
      let dx = d[0];
      let dy = d[1];
      let dz = d[2];
      let dw = d[3];
      if (dw < 0) {
        dx = -dx;
        dy = -dy;
        dz = -dz;
        dw = -dw;
      }
      // the log by hand, not anim-loop's quatLog: that one's sqrt and small-angle branch round
      // differently (1 ulp in ~3% of cases), and the refinement is sensitive to rounding
      const sn = Math.hypot(dx, dy, dz);
      const f = sn > 1e-12 ? (2 * Math.atan2(sn, dw)) / sn : 2;
      const r0 = f * dx;
      const r1 = f * dy;
      const r2 = f * dz;
      cost += 0.5 * w * (r0 * r0 + r1 * r1 + r2 * r2);
      if (!h || !g) continue;
      const p = 3 + 3 * k;
      // J = I + [r]x / 2 (row i: d r_i / d delta)
      const J = [1, -r2 / 2, r1 / 2, r2 / 2, 1, -r0 / 2, -r1 / 2, r0 / 2, 1];
      const r = [r0, r1, r2];
      for (let a = 0; a < 3; a++) {
        let ga = 0;
        for (let i = 0; i < 3; i++) ga += J[3 * i + a] * r[i];
        g[p + a] += w * ga;
        for (let b = a; b < 3; b++) {
          let hab = 0;
          for (let i = 0; i < 3; i++) hab += J[3 * i + a] * J[3 * i + b];
          h[(p + a) * P + p + b] += w * hab;
        }
      }
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
  }
}

const gradScratch = new Float64Array(2);
const kpScratch = new Float64Array(3);
const priorScratch = new Float64Array(4);

/**
 * Bilinear sample of a distance map at continuous pixel-grid coordinates (pixel centres at
 * integers) inside the view's crop; beyond the crop, the distance at the nearest crop point plus
 * the distance to it. Writes the gradient into `grad`; `Infinity` when the channel is absent.
 */
function sampleDistance(
  grad: Float64Array,
  obs: ObservedViews,
  c: number,
  view: number,
  x: number,
  y: number,
): number {
  if (!obs.present[2 * c + view]) return Number.POSITIVE_INFINITY;
  const r = obs.crop[2 * c + view];
  const d = obs.distance[c];
  const cx = Math.min(Math.max(x, r.x0), r.x1 - 1 - 1e-9);
  const cy = Math.min(Math.max(y, r.y0), r.y1 - 1 - 1e-9);
  const ix = Math.floor(cx);
  const iy = Math.floor(cy);
  const fx = cx - ix;
  const fy = cy - iy;
  const w = obs.width;
  const i = iy * w + ix;
  const d00 = d[i];
  const d10 = d[i + 1];
  const d01 = d[i + w];
  const d11 = d[i + w + 1];
  grad[0] = cx === x ? (1 - fy) * (d10 - d00) + fy * (d11 - d01) : 0;
  grad[1] = cy === y ? (1 - fx) * (d01 - d00) + fx * (d11 - d10) : 0;
  let out = (1 - fy) * ((1 - fx) * d00 + fx * d10) + fy * ((1 - fx) * d01 + fx * d11);
  const ex = x - cx;
  const ey = y - cy;
  if (ex !== 0 || ey !== 0) {
    const e = Math.hypot(ex, ey);
    out += e;
    grad[0] += ex / e;
    grad[1] += ey / e;
  }
  return out;
}

function huberWeight(r: number, delta: number): number {
  const a = Math.abs(r);
  return a <= delta ? 1 : delta / a;
}

function huberCost(r: number, delta: number): number {
  const a = Math.abs(r);
  return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}

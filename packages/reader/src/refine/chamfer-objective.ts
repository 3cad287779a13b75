import { type Layout, ViewProjection } from '@mocap/layout';
import type { z } from 'zod';
import { ChamferOptions } from './chamfer-options.js';
import { CoverCorrespondences } from './cover-correspondences.js';
import { cullsBackFaces } from './culls-back-faces.js';
import { huberCost, huberWeight } from './huber.js';
import { jointWorldMatrices } from './joint-world-matrices.js';
import type { KeypointTargets } from './keypoint-targets.js';
import { KeypointTerms } from './keypoint-terms.js';
import { linearBlendSkin } from './linear-blend-skin.js';
import type { ObservedViews } from './observed-views.js';
import { faceLabels, LABEL_GROUP0 } from './paint-labels.js';
import { priorTerms } from './prior-terms.js';
import { createRasterTarget, projectVertices, type RasterTarget, rasterizeDepth } from './rasterize-views.js';
import { poseRoot, type RefinePose } from './refine-pose-state.js';
import { sampleDistance } from './sample-distance.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { skinningMatrices } from './skinning-matrices.js';
import { type SurfaceSamples, surfaceSamples } from './surface-samples.js';
import { VertexJacobians } from './vertex-jacobians.js';

/**
 * The chamfer-style objective of the refinement and its Gauss-Newton normal equations. Given a
 * pose, it skins the mesh, projects surface samples into both views and compares them with
 * {@link ObservedViews}: (1) each visible sample's distance to the observed silhouette and to its
 * own paint group's mask (bilinear in the distance transform), (2) each observed boundary point's
 * offset from the nearest model boundary sample of the same channel, (3) joint origins against
 * heatmap peaks. All residuals are in layout px, Huber-weighted. Parameters: world translation
 * (3) then a rotation vector per free joint (3 each, in the joint's frame; see `applyPoseStep`),
 * then with `options.zoom` the log of the rig's zoom (column `p - root origin` for a point p).
 * Gradients are analytic; visibility and correspondences are found by rasterising the model and
 * held fixed between {@link ChamferObjective.evaluate} calls with `reuse`.
 */
export class ChamferObjective {
  /** Number of parameters: 3 + 3 x free joints (+ 1 with `options.zoom`). */
  readonly params: number;
  /** The zoom's parameter (the last), or -1 when the zoom is fixed. */
  readonly zoomParam: number;
  /** Free joint indices, in parameter order. */
  readonly joints: Int32Array;
  readonly samples: SurfaceSamples;
  private readonly o: z.output<typeof ChamferOptions>;
  private readonly paramOf: Int32Array;
  private readonly world: Float64Array;
  private readonly skin: Float64Array;
  private readonly root = new Float64Array(16);
  private readonly verts: Float64Array;
  private readonly vproj: Float64Array;
  private readonly proj: ViewProjection;
  private readonly spos: Float64Array;
  private readonly sproj: Float64Array;
  private readonly faceLabel: Uint8Array;
  private readonly targets = new Map<number, RasterTarget>();
  private inside: Int32Array;
  private insideCount = 0;
  private readonly cover: CoverCorrespondences;
  private cand = new Int32Array(0);
  private candCount = new Int32Array(0);
  private readonly vj: VertexJacobians;
  private readonly kp: KeypointTerms;
  /** Whether the visibility raster skips back faces (a closed mesh: the same depths, drawn in about half the time). */
  private readonly cull: boolean;

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
    this.zoomParam = this.o.zoom ? 3 + 3 * this.joints.length : -1;
    this.params = 3 + 3 * this.joints.length + (this.o.zoom ? 1 : 0);
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
    this.inside = new Int32Array(s * 2);
    this.vj = new VertexJacobians(mesh, this.samples, this.paramOf, this.params, this.zoomParam);
    this.cover = new CoverCorrespondences(s);
    this.cull = cullsBackFaces(mesh, layout);
    this.kp = new KeypointTerms(
      mesh,
      layout,
      this.proj,
      this.world,
      this.paramOf,
      this.params,
      this.zoomParam,
      this.root,
    );
  }

  /**
   * Sets (or clears, with null) the pose the prior pulls the free joints' rotations toward:
   * the previous frame's pose for temporal smoothness, or the rest pose. Its weight is
   * `options.prior`. The pose is copied.
   */
  setPrior(reference: RefinePose | null): void {
    this.priorPose = reference ? Float64Array.from(reference.pose.rotation) : null;
    this.priorZoom = reference ? reference.zoom : Number.NaN;
  }

  private priorPose: Float64Array | null = null;
  private priorZoom = Number.NaN;

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
    if (h && g) vj.begin(this.world, this.skin, this.verts, this.root);
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
    for (let k = 0; k < this.cover.count; k++) {
      const s = this.cover.pairs[2 * k];
      const view = this.cover.pairs[2 * k + 1] & 1;
      const wc = this.cover.pairs[2 * k + 1] >> 1 === 0 ? this.o.cover : this.o.cover * this.o.paint;
      const ru = this.sproj[3 * s + view] - this.cover.points[2 * k];
      const rv = this.sproj[3 * s + 2] - this.cover.points[2 * k + 1];
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
    if (keypoints && this.o.keypoints > 0)
      cost += this.kp.evaluate(keypoints, this.o.keypoints, this.o.huberPx, h, g);
    if (this.priorPose && this.o.prior > 0)
      cost += priorTerms(this.priorPose, state, this.joints, this.o.prior, this.params, h, g);
    if (this.zoomParam >= 0 && this.o.zoomPrior > 0 && Number.isFinite(this.priorZoom)) {
      const z = this.zoomParam;
      const r = Math.log(state.zoom / this.priorZoom);
      cost += 0.5 * this.o.zoomPrior * r * r;
      if (h && g) {
        g[z] += this.o.zoomPrior * r;
        h[z * this.params + z] += this.o.zoomPrior;
      }
    }
    if (h) this.finishNormal(h);
    return cost;
  }

  private pose(state: RefinePose): void {
    const mesh = this.mesh;
    poseRoot(this.root, mesh.toWorld, state);
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
    if (this.moved(f)) rasterizeDepth(target, this.verts, this.vproj, this.mesh.indices, this.cull);
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
    this.cover.clear();
    for (let c = 0; c < obs.channels; c++) {
      for (let view = 0; view < 2; view++) {
        const n = candCount[2 * c + view];
        const cand = candAll.subarray((2 * c + view) * count, (2 * c + view) * count + n);
        const pts = obs.boundary[2 * c + view];
        this.cover.match(this.sproj, cand, view, c, pts);
      }
    }
  }

  /**
   * Whether the vertices moved more than `rasterMovePx` (px of level `f`) since the last
   * rasterisation at that level; when they did, their projection is kept as the new reference.
   */
  private moved(f: number): boolean {
    const limit = this.o.rasterMovePx * f;
    let at = this.rastered.get(f);
    if (!at || limit <= 0) {
      if (limit > 0) {
        at = Float64Array.from(this.vproj);
        this.rastered.set(f, at);
      }
      return true;
    }
    const p = this.vproj;
    let far = false;
    for (let i = 0; i < p.length && !far; i++) far = Math.abs(p[i] - at[i]) > limit;
    if (far) at.set(p);
    return far;
  }

  private readonly rastered = new Map<number, Float64Array>();

  /** Mirrors the accumulated upper triangle of `h` into the lower one. */
  private finishNormal(h: Float64Array): void {
    const P = this.params;
    for (let i = 0; i < P; i++) for (let j = i + 1; j < P; j++) h[j * P + i] = h[i * P + j];
  }
}

const gradScratch = new Float64Array(2);

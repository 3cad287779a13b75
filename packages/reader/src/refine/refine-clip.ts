import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { z } from 'zod';
import { ChamferObjective, type ChamferOptions, type KeypointTargets } from './chamfer-objective.js';
import { cleanLabels } from './clean-labels.js';
import { type ColourModel, fitColourModel, segmentImage } from './colour-model.js';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { linearBlendSkin } from './linear-blend-skin.js';
import { type ObservedViews, observeLabels } from './observed-views.js';
import { faceLabels, LABEL_BODY, LABEL_GROUP0, type PaintJoints, vertexPaintLabels } from './paint-labels.js';
import { backdropSilhouette, placeRestPose, silhouetteAreas } from './place-rest-pose.js';
import { createRasterTarget, projectVertices, type RasterTarget, rasterizeViews } from './rasterize-views.js';
import { type RefineReport, refinePose } from './refine-pose.js';
import { copyRefinePose, predictRefinePose, type RefinePose, restRefinePose } from './refine-pose-state.js';
import { projectKeypoints, type RigKeypoints, rigKeypointPositions } from './rig-keypoints.js';
import { keepSideViewSwing, restLateralAxes } from './side-view-swing.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { skinningMatrices } from './skinning-matrices.js';

/**
 * The objective's settings for clips: paint channels at 0.3 of the silhouette (a hidden or fringed
 * paint group must not drag its limb), Huber at 3 px, a strong pull toward the previous frame's
 * pose (what no view shows otherwise drifts), heatmap peaks weighted by their confidence. Chosen on
 * rendered wolf exams; the figures behind each value are in docs/benchmarks.md (issue 7).
 */
export const CLIP_OBJECTIVE: Readonly<ChamferOptions> = Object.freeze({
  paint: 0.3,
  huberPx: 3,
  prior: 10000,
  keypoints: 4,
});

/** Options of {@link refineClip}; defaults in the schema. */
export const RefineClipOptions = z
  .object({
    /** Resolution levels (layout px per level px), coarse to fine. @default [2] */
    factors: z.array(z.number().int().positive()).min(1).default([2]),
    /** LM iterations per level on the second frame, and on every later one without `predict` (a frame stops early once no step helps). @default [10] */
    iterations: z.array(z.number().int().min(0)).default([10]),
    /** LM iterations per level on the first frame (from the placed rest pose). @default [12] */
    firstIterations: z.array(z.number().int().min(0)).default([12]),
    /**
     * The gate of the peaks of the first `firstGateFrames` frames (layout px from where the pose
     * the frame starts from puts their keypoint): a clip that does not start at rest (a segment of
     * a longer one) may want a wider one while it finds the creature. @default gatePx
     */
    firstGatePx: z.number().positive().optional(),
    /** How many frames {@link RefineClipOptions} `firstGatePx` applies to. @default 1 */
    firstGateFrames: z.number().int().min(0).default(1),
    /** Whether the first frame is pulled toward the placed rest pose it starts from (the prior). @default true */
    firstPrior: z.boolean().default(true),
    /** Boundary points per channel and view. @default 150 */
    maxBoundary: z.number().int().positive().default(150),
    /**
     * Heatmap peaks farther than this (layout px) from where the previous frame's pose puts their
     * keypoint are ignored (stage 1's peaks are often 20+ px off, sometimes on the wrong leg). @default 40
     */
    gatePx: z.number().positive().default(40),
    /** Peaks under this confidence are ignored. @default 0.2 */
    minConf: z.number().min(0).default(0.2),
    /**
     * Objective options (weights, Huber threshold, prior toward the previous frame), over
     * {@link CLIP_OBJECTIVE}. @default CLIP_OBJECTIVE
     */
    objective: z.custom<ChamferOptions>((v) => typeof v === 'object' && v !== null).optional(),
    /** Paint pixels farther than this (layout px) outside their group's box at the previous frame's pose become body. @default 25 */
    groupMarginPx: z.number().min(0).default(25),
    /** A paint group whose model shows fewer px than this in a view (at the previous frame's pose) is not looked for there. @default 400 */
    minVisiblePx: z.number().min(0).default(400),
    /** A keypoint whose bone shows at least this many px in a view gets confidence 1 there (less in proportion). @default 150 */
    visibleKeypointPx: z.number().positive().default(150),
    /** The confidence of a keypoint whose bone is hidden in a view. @default 0.1 */
    minKeypointConf: z.number().min(0).max(1).default(0.1),
    /** Paint pieces smaller than this (layout px) are dropped after the opening ({@link cleanLabels}). @default 40 */
    minPaintArea: z.number().int().min(0).default(40),
    /**
     * Joints the front view barely shows at the rest pose placed on the first frame (their faces
     * show fewer px there than this fraction of what the side view shows, the same for every joint
     * below them, and no paint group rides them: the wolf's tail behind its body) keep, after each
     * frame's fit, only the part of their rotation the side view sees, about the creature's lateral
     * axis ({@link keepSideViewSwing}). 0 turns it off. @default 0.2
     */
    sideOnlyRatio: z.number().min(0).max(1).default(0.2),
    /**
     * Until a pose is placed, a frame whose observed silhouette covers less than this fraction of
     * the placed rest pose's in either view (a clip fading in from the empty studio) is not refined:
     * its keypoints are NaN with confidence 0, and the first frame that shows the creature is the
     * clip's first for `firstIterations`, `firstPrior`, `firstGateFrames` and `sideOnlyRatio`. @default 0.5
     */
    minPlacedArea: z.number().min(0).max(1).default(0.5),
    /** Margin (layout px) around the previous frame's silhouette boxes where pixels are classified. @default 60 */
    marginPx: z.number().int().min(0).default(60),
    /**
     * From the third frame on, start the fit from the constant-velocity prediction of the last two
     * frames' poses ({@link predictRefinePose}) instead of the last pose, and run
     * `predictedIterations`; the prior still pulls toward the last pose (pulling toward the
     * prediction lost accuracy). Measured on rendered wolf exams: docs/benchmarks.md. @default true
     */
    predict: z.boolean().default(true),
    /** LM iterations per level on a frame that starts from a prediction (`predict`). @default [7] */
    predictedIterations: z.array(z.number().int().min(0)).default([7]),
  })
  .strict();
/** Options of {@link refineClip} as passed in. */
export type RefineClipOptions = z.input<typeof RefineClipOptions>;

/** Stage 1's heatmap peaks of a clip, det.npz's layout: T x K x 2 layout px, T x K confidences. */
export interface ClipPeaks {
  frontUv: ArrayLike<number>;
  sideUv: ArrayLike<number>;
  frontConf: ArrayLike<number>;
  sideConf: ArrayLike<number>;
}

/** What {@link refineClip} needs: the creature's skinned mesh, paint, keypoints and colour model. */
export interface RefineClipInput {
  mesh: SkinnedMesh;
  paint: readonly PaintJoints[];
  keypoints: RigKeypoints;
  layout: Layout;
  /**
   * The colour model (e.g. fitted on ref.png at the rest pose), or `first-frame`: fit it on the
   * clip's first frame at the rest pose placed on its backdrop silhouette (a generated clip starts
   * from the reference frame).
   */
  colour: ColourModel | 'first-frame';
  /** The clip's frames in layout px (calibrated), in order. */
  frames: Iterable<RgbImage> | AsyncIterable<RgbImage>;
  /** Stage 1's peaks for the same frames (keypoints in `keypoints.names` order), if any. */
  peaks?: ClipPeaks | null | undefined;
  /** The clip's name (e.g. its file) for error messages. */
  clip?: string | undefined;
}

/** The refined keypoints of a clip. */
export interface RefineClipResult {
  frames: number;
  /** T x K x 2 layout px, front view. */
  frontUv: Float32Array;
  /** T x K x 2 layout px, side view (full-frame columns). */
  sideUv: Float32Array;
  /**
   * T x K per view: 1 where the keypoint's bone shows at least `visibleKeypointPx` px, down to
   * `minKeypointConf` where it is hidden; 0 (and NaN keypoints) on the frames before the creature
   * shows (`minPlacedArea`).
   */
  frontConf: Float32Array;
  sideConf: Float32Array;
  /** T x K x 3 metres, layout world. */
  joints: Float64Array;
  /** Per frame: the refinement's report. */
  reports: RefineReport[];
  /** Per frame: heatmap peaks used (front + side) of 2K. */
  peaksUsed: Int32Array;
  /** Wall-clock seconds of segmentation + refinement (decoding excluded when frames come from memory). */
  seconds: number;
}

/**
 * Stage 2 over a clip: each frame is segmented into the creature's paint groups and silhouette by
 * the colour model (inside the previous frame's boxes), turned into distance maps coarse to fine,
 * and the skinned mesh is fitted to them in both views together with stage 1's peaks
 * (confidence-weighted, Huber, gated against the previous frame's keypoints) and a pull toward
 * the previous frame's pose. The first frame starts from the rest pose placed on its silhouette
 * (a generated clip starts from the reference frame); frames before the creature shows (a fade-in)
 * get NaN keypoints with confidence 0 (`minPlacedArea`). Returns the rig keypoints of every frame,
 * projected to both views as det.npz holds them, and in 3D.
 *
 * ```ts
 * const r = await refineClip({ mesh, paint, keypoints, layout, colour, frames, peaks });
 * ```
 */
export async function refineClip(
  input: RefineClipInput,
  options: RefineClipOptions = {},
  onFrame?: (index: number, report: RefineReport, labels: Uint8Array, state: RefinePose) => void,
): Promise<RefineClipResult> {
  const o = RefineClipOptions.parse(options);
  const { mesh, layout, keypoints: kp } = input;
  const K = kp.joints.length;
  const G = input.paint.length;
  const vlabels = vertexPaintLabels(mesh, input.paint);
  const objective = new ChamferObjective(mesh, vlabels, layout, { ...CLIP_OBJECTIVE, ...o.objective });
  const n = layout.WIDTH * layout.HEIGHT;
  const labels = new Uint8Array(n);
  const levels: (ObservedViews | undefined)[] = o.factors.map(() => undefined);
  const world = new Float64Array(mesh.jointNames.length * 16);
  const pos = new Float64Array(K * 3);
  const predF = new Float64Array(2 * K);
  const predS = new Float64Array(2 * K);
  const targets: KeypointTargets = {
    joints: kp.joints,
    offsets: kp.offsets,
    uv: new Float64Array(4 * K),
    conf: new Float64Array(2 * K),
  };
  const frontUv: number[] = [];
  const sideUv: number[] = [];
  const joints: number[] = [];
  const reports: RefineReport[] = [];
  const used: number[] = [];
  let state: ReturnType<typeof placeRestPose>['state'] | undefined;
  let regions: { x0: number; x1: number; y0: number; y1: number }[] | null = null;
  let seconds = 0;
  let t = 0;
  // the index of the first frame with a placed pose (the clip's first for the refinement)
  let first = -1;
  let colour = input.colour;
  const boxes = new Float64Array(G * 2 * 4);
  const raster = createRasterTarget(layout, 2);
  const flabels = faceLabels(mesh.indices, vlabels);
  const visible = new Float64Array(2 * G);
  const faceJoint = dominantJoints(mesh);
  const jointPx = new Float64Array(2 * mesh.jointNames.length);
  const frontConf: number[] = [];
  const sideConf: number[] = [];
  const swingJoints: number[] = [];
  const painted = new Uint8Array(mesh.jointNames.length);
  for (const g of input.paint)
    for (const b of g.bones) if (mesh.jointNames.includes(b)) painted[mesh.jointNames.indexOf(b)] = 1;
  const lateral = restLateralAxes(mesh);
  const scratch = {
    world: new Float64Array(mesh.jointNames.length * 16),
    skin: new Float64Array(mesh.jointNames.length * 16),
    verts: new Float64Array(mesh.vertexCount * 3),
    proj: new Float64Array(mesh.vertexCount * 3),
  };
  // the last two frames' fitted poses (for `predict`)
  let prev: RefinePose | null = null;
  let last: RefinePose | null = null;
  // The rest pose placed on a silhouette, or null when the silhouette does not show the whole creature.
  const placeOn = (mask: Uint8Array) => {
    const seen = silhouetteAreas(mask, layout);
    if (seen[0] === 0 || seen[1] === 0) return null;
    const placed = placeRestPose(mesh, vlabels, layout, mask);
    const small = seen[0] < o.minPlacedArea * placed.areas[0] || seen[1] < o.minPlacedArea * placed.areas[1];
    return small ? null : placed;
  };
  const skipFrame = () => {
    for (let i = 0; i < 2 * K; i++) {
      frontUv.push(Number.NaN);
      sideUv.push(Number.NaN);
    }
    for (let i = 0; i < 3 * K; i++) joints.push(Number.NaN);
    for (let k = 0; k < K; k++) {
      frontConf.push(0);
      sideConf.push(0);
    }
    reports.push({ levels: [] });
    used.push(0);
  };
  for await (const frame of input.frames) {
    if (frame.width !== layout.WIDTH || frame.height !== layout.HEIGHT) {
      throw new RangeError(
        `refineClip: frame ${t} is ${frame.width} x ${frame.height}; expected the layout's ${layout.WIDTH} x ${layout.HEIGHT} (calibrate first).`,
      );
    }
    const t0 = performance.now();
    if (colour === 'first-frame') {
      const placed = placeOn(backdropSilhouette(frame, layout));
      if (!placed) {
        skipFrame();
        seconds += (performance.now() - t0) / 1000;
        t++;
        continue;
      }
      colour = fitColourModel([{ image: frame, labels: placed.labels }], layout, {
        seed: 0,
        paintColours: input.paint.map((g) => g.colour ?? null),
      });
    }
    segmentImage(labels, colour, frame, layout, null, regions);
    if (!state) {
      const placed = placeOn(labels);
      if (!placed) {
        skipFrame();
        seconds += (performance.now() - t0) / 1000;
        t++;
        continue;
      }
      state = placed.state;
      first = t;
    }
    // the frame's index from the first placed one
    const r = t - first;
    groupBoxes(boxes, mesh, vlabels, state, layout, G, o.groupMarginPx, scratch);
    // A group the pose hides in a view (e.g. the far legs in the side view) is not looked for there.
    rasterizeViews(raster, scratch.verts, scratch.proj, mesh.indices, flabels);
    visibleGroups(visible, raster, G);
    jointVisibility(jointPx, raster, faceJoint);
    for (let b = 0; b < 2 * G; b++)
      if (visible[b] * 4 < o.minVisiblePx) boxes.fill(Number.NaN, 4 * b, 4 * b + 4);
    gatePaint(labels, layout, boxes);
    cleanLabels(labels, layout.WIDTH, layout.HEIGHT, o.minPaintArea);
    const obs = o.factors.map((f, k) => {
      const l = observeLabels(labels, layout, G, f, o.maxBoundary, levels[k]);
      levels[k] = l;
      return l;
    });
    const predicted = o.predict && prev !== null && last !== null;
    if (predicted) predictRefinePose(state, prev!, last!);
    // Peaks, gated against the keypoints of the pose the frame starts from.
    let peaks: KeypointTargets | null = null;
    let nUsed = 0;
    if (input.peaks) {
      rigKeypointPositions(pos, mesh, state, kp, world);
      projectKeypoints(predF, predS, 0, pos, K, layout);
      const p = input.peaks;
      const gate = r < o.firstGateFrames ? (o.firstGatePx ?? o.gatePx) : o.gatePx;
      for (let k = 0; k < K; k++) {
        const i = t * K + k;
        for (const [view, uv, conf, pred] of [
          [0, p.frontUv, p.frontConf, predF],
          [1, p.sideUv, p.sideConf, predS],
        ] as const) {
          const u = uv[2 * i] as number;
          const v = uv[2 * i + 1] as number;
          const c = conf[i] as number;
          const d = Math.hypot(u - pred[2 * k], v - pred[2 * k + 1]);
          const ok = Number.isFinite(u) && Number.isFinite(v) && c >= o.minConf && d <= gate;
          targets.uv[4 * k + 2 * view] = ok ? u : 0;
          targets.uv[4 * k + 2 * view + 1] = ok ? v : 0;
          targets.conf[2 * k + view] = ok ? c : 0;
          if (ok) nUsed++;
        }
      }
      peaks = targets;
    }
    // The first frame is pulled toward the rest pose it starts from, every later one toward the last.
    objective.setPrior(r > 0 || o.firstPrior ? (predicted ? last : state) : null);
    const { report } = refinePose(objective, state, obs, peaks, {
      iterations: r === 0 ? o.firstIterations : predicted ? o.predictedIterations : o.iterations,
    });
    if (r === 0 && o.sideOnlyRatio > 0) sideOnlyJoints(swingJoints, mesh, jointPx, painted, o.sideOnlyRatio);
    keepSideViewSwing(state, mesh, swingJoints, lateral);
    if (o.predict) {
      const spare = prev ?? restRefinePose(mesh);
      prev = last;
      last = copyRefinePose(spare, state);
    }
    rigKeypointPositions(pos, mesh, state, kp, world);
    const f = new Float64Array(2 * K);
    const s = new Float64Array(2 * K);
    projectKeypoints(f, s, 0, pos, K, layout);
    for (let i = 0; i < 2 * K; i++) {
      frontUv.push(f[i]);
      sideUv.push(s[i]);
    }
    for (let i = 0; i < 3 * K; i++) joints.push(pos[i]);
    // Confidence per keypoint and view: how much of its bone the (last) pose shows there (a hidden
    // tail or far leg is placed by the prior only; the solver should lean on the other view).
    for (let k = 0; k < K; k++) {
      const j = kp.joints[k];
      frontConf.push(Math.max(o.minKeypointConf, Math.min(1, (4 * jointPx[2 * j]) / o.visibleKeypointPx)));
      sideConf.push(Math.max(o.minKeypointConf, Math.min(1, (4 * jointPx[2 * j + 1]) / o.visibleKeypointPx)));
    }
    regions = o.marginPx > 0 ? silhouetteBoxes(labels, layout, o.marginPx) : null;
    seconds += (performance.now() - t0) / 1000;
    reports.push(report);
    used.push(nUsed);
    onFrame?.(t, report, labels, state);
    t++;
  }
  objective.setPrior(null);
  const name = input.clip ? `${input.clip}: ` : '';
  if (t === 0) throw new Error(`refineClip: ${name}the clip has no frames.`);
  if (!state) {
    throw new Error(
      `refineClip: ${name}no frame shows the creature (all ${t} frames' silhouettes are empty or under ${o.minPlacedArea} of the rest pose's in a view); is the creature in the frame?`,
    );
  }
  return {
    frames: t,
    frontUv: Float32Array.from(frontUv),
    sideUv: Float32Array.from(sideUv),
    frontConf: Float32Array.from(frontConf),
    sideConf: Float32Array.from(sideConf),
    joints: Float64Array.from(joints),
    reports,
    peaksUsed: Int32Array.from(used),
    seconds,
  };
}

/**
 * Per paint group and view, the box (u0, u1, v0, v1; layout px) of the group's vertices at a pose,
 * grown by `margin`: where that group's paint can be this frame.
 */
function groupBoxes(
  out: Float64Array,
  mesh: SkinnedMesh,
  vlabels: Uint8Array,
  state: RefinePose,
  layout: Layout,
  groups: number,
  margin: number,
  s: { world: Float64Array; skin: Float64Array; verts: Float64Array; proj: Float64Array },
): void {
  const root = new Float64Array(mesh.toWorld);
  for (let c = 0; c < 3; c++) root[12 + c] += state.translation[c];
  jointWorldMatrices(s.world, mesh, state.pose, root);
  skinningMatrices(s.skin, mesh, s.world);
  linearBlendSkin(s.verts, mesh, s.skin);
  projectVertices(s.proj, s.verts, mesh.vertexCount, layout);
  for (let b = 0; b < groups * 2; b++) out.set([Infinity, -Infinity, Infinity, -Infinity], 4 * b);
  for (let v = 0; v < mesh.vertexCount; v++) {
    const g = vlabels[v] - LABEL_GROUP0;
    if (g < 0) continue;
    for (let view = 0; view < 2; view++) {
      const o = 4 * (2 * g + view);
      const u = s.proj[3 * v + view];
      const r = s.proj[3 * v + 2];
      if (u < out[o]) out[o] = u;
      if (u > out[o + 1]) out[o + 1] = u;
      if (r < out[o + 2]) out[o + 2] = r;
      if (r > out[o + 3]) out[o + 3] = r;
    }
  }
  for (let b = 0; b < groups * 2; b++) {
    out[4 * b] -= margin;
    out[4 * b + 1] += margin;
    out[4 * b + 2] -= margin;
    out[4 * b + 3] += margin;
  }
}

/**
 * Into `out`: the joints of every unpainted subtree (a joint and all below it, no paint group
 * riding any of them) whose faces show fewer px in the front view than `ratio` x what they show in
 * the side view (`px`: per joint and view, {@link jointVisibility}), parents first.
 */
function sideOnlyJoints(
  out: number[],
  mesh: SkinnedMesh,
  px: Float64Array,
  painted: Uint8Array,
  ratio: number,
): void {
  const J = mesh.jointNames.length;
  const sum = new Float64Array(2 * J);
  const paintBelow = Uint8Array.from(painted);
  for (let k = mesh.order.length - 1; k >= 0; k--) {
    const j = mesh.order[k];
    sum[2 * j] += px[2 * j];
    sum[2 * j + 1] += px[2 * j + 1];
    const p = mesh.parent[j];
    if (p < 0) continue;
    sum[2 * p] += sum[2 * j];
    sum[2 * p + 1] += sum[2 * j + 1];
    if (paintBelow[j]) paintBelow[p] = 1;
  }
  out.length = 0;
  const chosen = new Uint8Array(J);
  for (const j of mesh.order) {
    const p = mesh.parent[j];
    chosen[j] =
      (p >= 0 && chosen[p]) || (!paintBelow[j] && sum[2 * j + 1] > 0 && sum[2 * j] < ratio * sum[2 * j + 1])
        ? 1
        : 0;
    if (chosen[j]) out.push(j);
  }
}

/** Per triangle, the joint that carries most of its three vertices' skin weight. */
function dominantJoints(mesh: SkinnedMesh): Int32Array {
  const f = mesh.indices.length / 3;
  const out = new Int32Array(f);
  const acc = new Map<number, number>();
  for (let t = 0; t < f; t++) {
    acc.clear();
    for (let c = 0; c < 3; c++) {
      const v = mesh.indices[3 * t + c];
      for (let q = 0; q < 4; q++) {
        const w = mesh.weights[4 * v + q];
        if (w > 0) acc.set(mesh.joints[4 * v + q], (acc.get(mesh.joints[4 * v + q]) ?? 0) + w);
      }
    }
    let best = 0;
    let bestW = -1;
    for (const [j, w] of acc) {
      if (w > bestW) {
        best = j;
        bestW = w;
      }
    }
    out[t] = best;
  }
  return out;
}

/** Per joint and view (index `2 j + view`): raster pixels whose face the joint dominates. */
function jointVisibility(out: Float64Array, r: RasterTarget, faceJoint: Int32Array): void {
  out.fill(0);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const f = r.face[y * r.width + x];
      if (f >= 0) out[2 * faceJoint[f] + (x < r.sideStart ? 0 : 1)]++;
    }
  }
}

/** Per paint group and view (index `2 g + view`): pixels of a raster showing the group. */
function visibleGroups(out: Float64Array, r: RasterTarget, groups: number): void {
  out.fill(0);
  for (let y = 0; y < r.height; y++) {
    for (let x = 0; x < r.width; x++) {
      const g = r.label[y * r.width + x] - LABEL_GROUP0;
      if (g >= 0 && g < groups) out[2 * g + (x < r.sideStart ? 0 : 1)]++;
    }
  }
}

/** Paint pixels outside their group's box ({@link groupBoxes}; NaN: nowhere) become body. */
function gatePaint(labels: Uint8Array, layout: Layout, boxes: Float64Array): void {
  const w = layout.WIDTH;
  for (let y = 0; y < layout.HEIGHT; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const g = labels[i] - LABEL_GROUP0;
      if (g < 0) continue;
      const o = 4 * (2 * g + (x < layout.W_FRONT ? 0 : 1));
      if (
        !(x + 0.5 >= boxes[o]) ||
        x + 0.5 > boxes[o + 1] ||
        y + 0.5 < boxes[o + 2] ||
        y + 0.5 > boxes[o + 3]
      )
        labels[i] = LABEL_BODY;
    }
  }
}

/** Per view, the bounding box of the labelled pixels grown by `margin` (null when a view is empty). */
function silhouetteBoxes(
  labels: Uint8Array,
  layout: Layout,
  margin: number,
): { x0: number; x1: number; y0: number; y1: number }[] | null {
  const box = [
    [Infinity, -Infinity, Infinity, -Infinity],
    [Infinity, -Infinity, Infinity, -Infinity],
  ];
  const w = layout.WIDTH;
  for (let y = 0; y < layout.HEIGHT; y++) {
    for (let x = 0; x < w; x++) {
      if (!labels[y * w + x]) continue;
      const b = box[x < layout.W_FRONT ? 0 : 1];
      if (x < b[0]) b[0] = x;
      if (x > b[1]) b[1] = x;
      if (y < b[2]) b[2] = y;
      if (y > b[3]) b[3] = y;
    }
  }
  if (!box.every((b) => b[0] <= b[1])) return null;
  return box.map((b, v) => ({
    x0: Math.max(v === 0 ? 0 : layout.W_FRONT, b[0] - margin),
    x1: Math.min(v === 0 ? layout.W_FRONT : w, b[1] + 1 + margin),
    y0: Math.max(0, b[2] - margin),
    y1: Math.min(layout.HEIGHT, b[3] + 1 + margin),
  }));
}

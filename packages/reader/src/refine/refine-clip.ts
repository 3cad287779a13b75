import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import type { ClipNoise } from '../describe-noise.js';
import { type BackdropField, backdropField } from './backdrop-field.js';
import { boxBlur } from './box-blur.js';
import { ChamferObjective } from './chamfer-objective.js';
import { cleanLabels } from './clean-labels.js';
import { type ColourModel, fitColourModel, segmentImage } from './colour-model.js';
import { dividerWidth } from './divider-width.js';
import { fitFirstFrame } from './first-frame-fit.js';
import { frameNoise } from './frame-noise.js';
import { dominantJoints, jointProjectedArea, jointVisibility } from './joint-visibility.js';
import { viewConfidences } from './keypoint-confidence.js';
import type { KeypointTargets } from './keypoint-targets.js';
import { flipLateral, LateralFlips } from './lateral-flip.js';
import { type ObservedViews, observeLabels } from './observed-views.js';
import { gatePaint, groupBoxes, visibleGroups } from './paint-gate.js';
import { faceLabels, type PaintJoints, vertexPaintLabels } from './paint-labels.js';
import { backdropSilhouette, placeRestPose, silhouetteAreas } from './place-rest-pose.js';
import { createRasterTarget, rasterizeViews } from './rasterize-views.js';
import { CLIP_OBJECTIVE, RefineClipOptions } from './refine-clip-options.js';
import { type RefineReport, refinePose } from './refine-pose.js';
import {
  cloneRefinePose,
  copyRefinePose,
  predictRefinePose,
  type RefinePose,
  restRefinePose,
} from './refine-pose-state.js';
import { projectKeypoints, type RigKeypoints, rigKeypointPositions } from './rig-keypoints.js';
import { sideOnlyJoints } from './side-only-joints.js';
import { keepSideViewSwing, restLateralAxes } from './side-view-swing.js';
import { silhouetteBoxes } from './silhouette-boxes.js';
import type { SkinnedMesh } from './skinned-mesh.js';
import { unmixEdges } from './unmix-edges.js';

/** Stage 1's heatmap peaks of a clip, det.npz's layout: T x K x 2 layout px, T x K confidences. */
export interface ClipPeaks {
  frontUv: ArrayLike<number>;
  sideUv: ArrayLike<number>;
  frontConf: ArrayLike<number>;
  sideConf: ArrayLike<number>;
  /**
   * Frames the side view's peaks run behind the frames given (negative: the front's), when the
   * frames were put in step and the peaks were not: frame t's side peaks are then read at
   * t + lag (the front's at t - lag). @default 0
   */
  lag?: number | undefined;
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
  /**
   * Per frame, how much of the creature it shows (a fade-in's first frames, restored): a frame at 0
   * is not refined; before the first refined frame such frames carry its keypoints at
   * `minKeypointConf` (a clip fades in on the creature near where it first shows), later ones get
   * NaN keypoints with confidence 0. Frames past the array show it fully. @default all 1
   */
  visibility?: ArrayLike<number> | undefined;
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
   * `minKeypointConf` where it is hidden; `unseenKeypointConf` in both views where both hide it
   * (`minKeypointConf` on the first `unseenStartFrames` refined frames);
   * 0 (and NaN keypoints) on the frames before the creature shows (`minPlacedArea`).
   */
  frontConf: Float32Array;
  sideConf: Float32Array;
  /** T x K x 3 metres, layout world. */
  joints: Float64Array;
  /** Per frame: the refinement's report. */
  reports: RefineReport[];
  /** Per frame: heatmap peaks used (front + side) of 2K. */
  peaksUsed: Int32Array;
  /**
   * Per frame: the zoom the rig was fitted at (`followZoom`; 1 without): the clip's zoom against
   * the first frame's, which the keypoints show too.
   */
  zoom: Float64Array;
  /** Frames fitted a second time from a laterally mirrored pose (`flipFrames`), and how many kept it. */
  flips: { tried: number; kept: number };
  /** The most pixel noise a frame's wall showed ({@link frameNoise}, levels) and how many frames were box-blurred for labelling (`denoiseAbove`). */
  /** The wall's noise, the frames box-blurred (`denoiseAbove`) and those labelled with the backdrop's uneven light fitted across each view (`fieldEvery`). */
  noise: ClipNoise;
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
  const objective = new ChamferObjective(mesh, vlabels, layout, {
    ...CLIP_OBJECTIVE,
    zoom: o.followZoom,
    ...o.objective,
  });
  // the first frame's second objective (`firstPaint`), built when a first frame is fitted
  let paintObjective: ChamferObjective | undefined;
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
  const zoom: number[] = [];

  let state: ReturnType<typeof placeRestPose>['state'] | undefined;
  let regions: { x0: number; x1: number; y0: number; y1: number }[] | null = null;
  let seconds = 0;
  let t = 0;
  // the index of the first frame with a placed pose (the clip's first for the refinement)
  let first = -1;
  let colour = input.colour;
  // the frame box-blurred for the colour model when its wall is noisy (denoiseAbove)
  let smoothed: RgbImage | null = null;
  let denoised = 0;
  let softEdges = 0;
  let dividerPx = Number.NEGATIVE_INFINITY;
  // the backdrop's uneven light (null: even; frame-wide gains)
  let field: BackdropField | null = null;
  let lit = 0;
  let noiseMax = 0;
  const boxes = new Float64Array(G * 2 * 4);
  const raster = createRasterTarget(layout, 2);
  const flabels = faceLabels(mesh.indices, vlabels);
  const visible = new Float64Array(2 * G);
  const faceJoint = dominantJoints(mesh);
  const jointPx = new Float64Array(2 * mesh.jointNames.length);
  const jointArea = new Float64Array(2 * mesh.jointNames.length);
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
  // Mirror pairs the side view cannot tell: a keypoint's front peak steadily on the other side of
  // its pivot (the joint that turns it: its own for a bone's tail, the parent's for a head). A
  // painted pivot is left out: its paint already shows the front view which side its limb is on.
  const free = new Set(objective.joints);
  const pivotOf = Int32Array.from(kp.joints, (j, k) => {
    const tail = kp.offsets[3 * k] !== 0 || kp.offsets[3 * k + 1] !== 0 || kp.offsets[3 * k + 2] !== 0;
    const pivot = tail ? j : mesh.parent[j];
    return pivot >= 0 && mesh.parent[pivot] >= 0 && free.has(pivot) && !painted[pivot] ? pivot : -1;
  });
  const flipsOn = o.flipFrames > 0 && pivotOf.some((q) => q >= 0);
  const flips = new LateralFlips(K, {
    gatePx: o.gatePx,
    frames: o.flipFrames,
    minConf: o.flipConf,
    minPx: o.flipMinPx,
    minShare: o.flipMinShare,
    cooldown: o.flipCooldown,
  });
  const pivotPos = new Float64Array(3 * K);
  const pivotF = new Float64Array(2 * K);
  const pivotS = new Float64Array(2 * K);
  const flipping: number[] = [];
  const flipPeaks = new Float64Array(3 * K);
  let spare: RefinePose | null = null;
  let flipsTried = 0;
  let flipsKept = 0;
  // The rest pose placed on a silhouette, or null when the silhouette does not show the whole creature.
  const placeOn = (mask: Uint8Array) => {
    const seen = silhouetteAreas(mask, layout);
    if (seen[0] === 0 || seen[1] === 0) return null;
    const placed = placeRestPose(mesh, vlabels, layout, mask);
    const small = seen[0] < o.minPlacedArea * placed.areas[0] || seen[1] < o.minPlacedArea * placed.areas[1];
    return small ? null : placed;
  };
  // frames of a fade too faint to read before the first placed one: they get its pose (below)
  const unseen: number[] = [];
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
    zoom.push(state?.zoom ?? 1);
  };
  for await (const frame of input.frames) {
    if (frame.width !== layout.WIDTH || frame.height !== layout.HEIGHT) {
      throw new RangeError(
        `refineClip: frame ${t} is ${frame.width} x ${frame.height}; expected the layout's ${layout.WIDTH} x ${layout.HEIGHT} (calibrate first).`,
      );
    }
    const t0 = performance.now();
    if ((input.visibility?.[t] ?? 1) <= 0) {
      if (!state) unseen.push(t);
      skipFrame();
      seconds += (performance.now() - t0) / 1000;
      t++;
      continue;
    }
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
    const noise = o.denoiseAbove > 0 ? frameNoise(frame, layout) : 0;
    let seen = frame;
    if (noise > o.denoiseAbove) {
      smoothed ??= { width: frame.width, height: frame.height, data: new Uint8Array(frame.data.length) };
      seen = boxBlur(smoothed, frame, denoiseRadius(noise, o.denoiseTarget), regions);
      denoised++;
    }
    noiseMax = Math.max(noiseMax, noise);
    // uneven light on the backdrop (a vignette): measured every few frames, it changes slowly
    if (o.fieldEvery > 0 && t % o.fieldEvery === 0) field = backdropField(seen, layout, colour.reference);
    if (field) lit++;
    segmentImage(labels, colour, seen, layout, field, regions);
    const divider = dividerWidth(frame, layout);
    if (divider > dividerPx) dividerPx = divider;
    // The softer the edges, the larger the share of backdrop an outline pixel may hold. Not with
    // the zoom followed: the outline's size is its evidence, and an outline whose size moves with
    // the blur reads as a zoom.
    const soft = seen !== frame ? 1 : Math.min(1, Math.max(0, (divider - layout.DIVIDER_PX) / o.unmixSpan));
    if (o.unmixPasses > 0 && !o.followZoom && soft > 0) {
      unmixEdges(labels, seen, regions, { passes: o.unmixPasses, below: 0.5 * soft });
      softEdges++;
    }
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
    if (o.visibleShare > 0) jointProjectedArea(jointArea, scratch.proj, mesh.indices, faceJoint);
    for (let b = 0; b < 2 * G; b++)
      if (visible[b] * 4 < o.minVisiblePx) boxes.fill(Number.NaN, 4 * b, 4 * b + 4);
    gatePaint(labels, layout, boxes, regions);
    cleanLabels(labels, layout.WIDTH, layout.HEIGHT, o.minPaintArea);
    const obs = o.factors.map((f, k) => {
      const l = observeLabels(labels, layout, G, f, o.maxBoundary, levels[k], regions);
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
      flipping.length = 0;
      if (flipsOn) {
        for (let k = 0; k < K; k++) {
          const q = Math.max(0, pivotOf[k]);
          for (let c = 0; c < 3; c++) pivotPos[3 * k + c] = world[16 * q + 12 + c];
        }
        projectKeypoints(pivotF, pivotS, 0, pivotPos, K, layout);
      }
      const p = input.peaks;
      const gate = r < o.firstGateFrames ? (o.firstGatePx ?? o.gatePx) : o.gatePx;
      const lag = p.lag ?? 0;
      // the frame's peaks per view (a view running behind is read ahead; past the peaks: none)
      const tf = t + Math.max(0, -lag);
      const ts = t + Math.max(0, lag);
      for (let k = 0; k < K; k++) {
        for (const [view, uv, conf, pred, i] of [
          [0, p.frontUv, p.frontConf, predF, tf * K + k],
          [1, p.sideUv, p.sideConf, predS, ts * K + k],
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
          if (view === 0 && flipsOn && pivotOf[k] >= 0 && Number.isFinite(u) && Number.isFinite(v)) {
            const reach =
              Math.hypot(
                pos[3 * k] - pivotPos[3 * k],
                pos[3 * k + 1] - pivotPos[3 * k + 1],
                pos[3 * k + 2] - pivotPos[3 * k + 2],
              ) / layout.M_PER_PX;
            if (flips.observe(k, u, v, c, d, predF[2 * k], pivotF[2 * k], reach) && r > 0) {
              flipping.push(k);
              flipPeaks[3 * k] = u;
              flipPeaks[3 * k + 1] = v;
              flipPeaks[3 * k + 2] = c;
            }
          }
        }
      }
      peaks = targets;
    }
    // The first frame is pulled toward the rest pose it starts from, every later one toward the last.
    const prior = r > 0 || o.firstPrior ? (predicted ? last : state) : null;
    let report: RefineReport;
    if (r === 0 && o.firstPaint > 0) {
      paintObjective ??= new ChamferObjective(mesh, vlabels, layout, {
        ...CLIP_OBJECTIVE,
        zoom: o.followZoom,
        ...o.objective,
        paint: o.firstPaint,
      });
      report = fitFirstFrame(objective, paintObjective, state, obs, peaks, o.firstIterations, prior);
    } else {
      objective.setPrior(prior);
      const iterations = r === 0 ? o.firstIterations : predicted ? o.predictedIterations : o.iterations;
      report = refinePose(objective, state, obs, peaks, { iterations }).report;
      if (flipping.length > 0 && peaks) {
        // The mirrored pose, fitted with the mirrored peaks let in, kept where it costs about as much
        // (the outline barely tells the two apart) or less, with those peaks in the cost.
        spare = copyRefinePose(spare ?? cloneRefinePose(state), state);
        rigKeypointPositions(pos, mesh, state, kp, world);
        const done = new Set<number>();
        for (const k of flipping) {
          if (done.has(pivotOf[k])) continue;
          done.add(pivotOf[k]);
          flipLateral(state, mesh, pivotOf[k], pos.subarray(3 * k, 3 * k + 3), scratch.world);
        }
        for (const k of flipping) {
          peaks.uv[4 * k] = flipPeaks[3 * k];
          peaks.uv[4 * k + 1] = flipPeaks[3 * k + 1];
          peaks.conf[2 * k] = flipPeaks[3 * k + 2];
        }
        const flipped = refinePose(objective, state, obs, peaks, { iterations }).report;
        objective.setPrior(null);
        const fine = obs[obs.length - 1]!;
        const costFlipped = objective.evaluate(state, fine, peaks, false);
        const costKept = objective.evaluate(spare, fine, peaks, false);
        objective.setPrior(prior);
        const kept = costFlipped < costKept * (1 + o.flipTolerance);
        if (kept) report = flipped;
        else copyRefinePose(state, spare);
        flipsTried++;
        if (kept) flipsKept++;
        for (const k of flipping) flips.settle(k, kept);
      }
    }
    zoom.push(state.zoom);
    if (o.sideOnlyRatio > 0) sideOnlyJoints(swingJoints, mesh, jointPx, painted, o.sideOnlyRatio);
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
    // A fade's unread first frames carry the first pose seen, barely trusted (the clip starts near it).
    if (r === 0) {
      for (const u of unseen) {
        for (let i = 0; i < 2 * K; i++) {
          frontUv[2 * K * u + i] = f[i];
          sideUv[2 * K * u + i] = s[i];
        }
        for (let i = 0; i < 3 * K; i++) joints[3 * K * u + i] = pos[i];
        zoom[u] = state.zoom;
        frontConf.fill(o.minKeypointConf, K * u, K * (u + 1));
        sideConf.fill(o.minKeypointConf, K * u, K * (u + 1));
      }
    }
    // Confidence per keypoint and view: how much of its bone the (last) pose shows there (a hidden
    // tail or far leg is placed by the prior only; the solver should lean on the other view).
    // A bone mostly behind other parts (the back behind the head and chest seen from the front)
    // is placed by the parts around it, not seen: its share of its own area scales the confidence.
    // A keypoint neither view shows is the prior's guess alone ({@link viewConfidences}).
    const px2 = raster.factor * raster.factor;
    const shown = (j: number, view: number) => {
      const px = px2 * jointPx[2 * j + view];
      const area = jointArea[2 * j + view];
      const share = o.visibleShare > 0 && area > 0 ? Math.min(1, px / (o.visibleShare * area)) : 1;
      return Math.min(1, px / o.visibleKeypointPx) * share;
    };
    for (let k = 0; k < K; k++) {
      const j = kp.joints[k];
      const [front, side] = viewConfidences(
        shown(j, 0),
        shown(j, 1),
        o.minKeypointConf,
        r < o.unseenStartFrames ? o.minKeypointConf : o.unseenKeypointConf,
      );
      frontConf.push(front);
      sideConf.push(side);
    }
    regions = o.marginPx > 0 ? silhouetteBoxes(labels, layout, o.marginPx, regions) : null;
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
    zoom: Float64Array.from(zoom),
    flips: { tried: flipsTried, kept: flipsKept },
    noise: {
      max: noiseMax,
      denoised,
      unevenLight: lit,
      softEdges,
      dividerPx: Number.isFinite(dividerPx) ? dividerPx : Number.NaN,
    },
    seconds,
  };
}

/** The box radius that brings pixel noise `noise` to about `target` (a (2r + 1)-wide box cuts it 2r + 1 times), 1-3. */
function denoiseRadius(noise: number, target: number): number {
  return Math.min(3, Math.max(1, Math.ceil((noise / target - 1) / 2)));
}

import { quatFromMat3 } from '@mocap/anim-loop';
import {
  DEFAULT_LAYOUT,
  type Detections,
  emptySyncReport,
  FileError,
  type Layout,
  type MotionJson,
  type SyncReport,
  ViewProjection,
} from '@mocap/layout';
import type { CreatureInfo } from './creature-info.js';
import { clipLmLoop, frameLmLoop, type LoopReport, type WindowScratch } from './fit-loop.js';
import {
  DEFAULT_FIT_WEIGHTS,
  type FitData,
  type FitWeights,
  fitData,
  fitWeights,
  keypointChains,
} from './fit-objective.js';
import { FitState } from './fit-state.js';
import { fixSwaps } from './fix-swaps.js';
import { keypointsFromPose, poseFrame, quatWxyzToMat3 } from './forward-kinematics.js';
import { frameCosts } from './frame-costs.js';
import { detectionsOnSourceGrid, estimateFrameTiming, type FrameTiming } from './frame-timing.js';
import { initialPose } from './init-pose.js';
import { jerkScales } from './jerk-scales.js';
import {
  DEFAULT_LAG_RELEASE,
  jerkWeightsOfScales,
  type LagReleaseOptions,
  laggingJerkWeights,
  robustJerkWeights,
} from './jerk-weights.js';
import { selectKth } from './linalg.js';
import { orthonormalRigModel, type RigModel } from './rig-model.js';
import { syncChecks } from './sync-checks.js';

/** Options of {@link fit}. */
export interface FitOptions {
  /** The frame layout the detections are in. @default DEFAULT_LAYOUT */
  layout?: Layout;
  /** Feet, mirror pairs and groups of the creature (see `creatureInfo`). @default none */
  creature?: CreatureInfo;
  /** Term weights, tuned at 2 px of noise; scaled by the measured noise unless `noiseAdaptive` is false. */
  weights?: Partial<FitWeights>;
  /** Iterations of the frame-wise stage. @default 4 */
  frameIterations?: number;
  /** Gauss-Newton steps of the whole-clip stage (a fourth moves no error figure by more than 0.004 cm). @default 3 */
  clipIterations?: number;
  /** Detect and undo left/right label swaps. @default true */
  fixSwaps?: boolean;
  /** Run the sync checks (and warp the front view when they say so). @default true */
  sync?: boolean;
  /** Scale the priors by the measured detection noise (so perfect detections are fitted exactly). @default true */
  noiseAdaptive?: boolean;
  /** Final Cauchy scale, px (the frame stage anneals to it from 40 px; the clip stage uses it). @default 6 */
  scaleEnd?: number;
  /** Conjugate-gradient iterations of the first clip step at most. @default 20 */
  cgIterations?: number;
  /** Conjugate-gradient iterations of each later clip step at most. @default 20 */
  cgLater?: number;
  /** Precondition the clip stage with temporal bands around the frame blocks (see `lmLoop`). @default false */
  schwarz?: boolean;
  /** Precondition the clip stage with symmetric block Gauss-Seidel over frames (else block-Jacobi). @default true */
  gaussSeidel?: boolean;
  /** Rebuild the clip stage's preconditioner every this many iterations. @default 1 */
  refreshEvery?: number;
  /** Own frames per window of the clip stage (see `clipLmLoop`; Infinity: the whole clip at once). @default CLIP_WINDOW */
  clipWindow?: number;
  /** Frames of context on each side of a clip-stage window. @default CLIP_PAD */
  clipPad?: number;
  /**
   * Robust jerk prior: after the clip stage, reweight each jerk residual by Cauchy with this
   * many times its angle's median jerk (see `robustJerkWeights`) and run the clip stage again,
   * `robustRounds` times; 0 keeps one weight. @default 0
   */
  robustJerk?: number;
  /** Reweighting rounds of `robustJerk` (each a clip-stage run of `robustIterations` steps). @default 2 */
  robustRounds?: number;
  /** Clip-stage steps after each reweighting. @default 2 */
  robustIterations?: number;
  /**
   * Let fast limbs through: after the clip stage, release the jerk prior where keypoints lag in
   * both views over consecutive frames (see `laggingJerkWeights`) and run the clip stage again
   * (`lagIterations` steps); null turns it off. Clips without such lags (noise, outliers, the
   * generator's gaits) are fitted exactly as without it. @default DEFAULT_LAG_RELEASE
   */
  lagRelease?: LagReleaseOptions | null;
  /** Clip-stage steps after the lag release. @default 2 */
  lagIterations?: number;
  /**
   * The frame rate the weights were tuned at: each temporal prior on an n-th difference over
   * frames is scaled by (clip fps / this)^n. A motion's n-th difference per frame grows as
   * (1 / fps)^n, so weights kept per frame flatten a 16 fps clip's fast limbs; scaling by the
   * full fps^2n (the same smoothing in Hz) lets the noise through, since a slower clip has fewer
   * samples a second against the same noise per sample; the square root of that fitted best on
   * 12-60 fps (docs/benchmarks.md). null keeps the weights per frame. @default 30
   */
  weightsFps?: number | null;
  /**
   * `auto`: when the tracks say the clip's frames were picked unevenly from a faster source (a
   * 30 fps clip resampled to 24 by nearest frames; see `estimateFrameTiming`), fit on the
   * source's time grid, the frames it did not show placed by the priors, and return the clip's
   * frames; `even`: take the file's even steps. @default 'auto'
   */
  frameTiming?: 'auto' | 'even';
  /** Name of the detections file, for error messages. @default 'det.npz' */
  file?: string;
}

/** What {@link fit} returns. */
export interface FitResult {
  /**
   * The motion.json content: built from the fitted state, whose finiteness is checked, in the
   * schema's shapes by construction (the tests parse it with `MotionJson`; parsing every fit's
   * output again took a fresh process a tenth of its fit: docs/benchmarks.md).
   */
  motion: MotionJson;
  /** Fitted joints, T x K x 3 metres (exact Blender FK of the motion), in the rig's keypoint order. */
  joints: Float64Array;
  /** Seconds the fit took (after reading). */
  seconds: number;
  /** The measured detection noise, px. */
  noisePx: number;
  /** Seconds per stage: `init`, `frame stage`, `clip stage`, `output`. */
  stages: Record<string, number>;
  /**
   * Work done: clip-stage Gauss-Newton steps tried and conjugate-gradient iterations (both clip
   * loops), frames restarted after the frame-wise stage (for benches: all grow linearly with T),
   * and the (frame, keypoint) lags the lag release found (see `lagRelease`).
   */
  counts: { clipSteps: number; cgIterations: number; reseeded: number; lags: number };
  /** The uneven timing the fit found and fitted on (`frameTiming: 'auto'`), or null: even steps. */
  timing: FrameTiming | null;
}

function timer(out: Record<string, number>): (label: string) => void {
  let last = performance.now();
  return (label) => {
    const now = performance.now();
    out[label] = (now - last) / 1000;
    last = now;
  };
}

/** The reference noise level the default weights are tuned at, px. */
const NOISE_REF_PX = 2;

function viewData(model: RigModel, det: Detections, file: string) {
  const t = det.frames;
  if (!(t >= 2)) {
    throw new FileError(`solve: ${file}: front_uv: needs at least 2 frames, got ${t}.`, file, 'front_uv');
  }
  const rigNames = model.keypoints.map((kp) => kp.name);
  const index = new Map(rigNames.map((n, i) => [n, i]));
  det.names.forEach((n, i) => {
    if (!index.has(n)) {
      throw new FileError(
        `solve: ${file}: names[${i}]: "${n}" is not a joint of the rig (joints: ${rigNames.slice(0, 6).join(', ')}...).`,
        file,
        `names[${i}]`,
      );
    }
  });
  const k = rigNames.length;
  const kd = det.names.length;
  const front = new Float64Array(t * k * 2);
  const side = new Float64Array(t * k * 2);
  const frontConf = new Float64Array(t * k);
  const sideConf = new Float64Array(t * k);
  // front_uv / side_uv are layout px already (mocap detect maps the clip before it writes
  // det.npz); `calib` only records how the clip was mapped, so it is not applied again here.
  if (kd === k && det.names.every((n, q) => index.get(n) === q)) {
    // The rig's own order (what mocap detect writes): one native copy per array.
    front.set(det.frontUv.subarray(0, t * k * 2));
    side.set(det.sideUv.subarray(0, t * k * 2));
    frontConf.set(det.frontConf.subarray(0, t * k));
    sideConf.set(det.sideConf.subarray(0, t * k));
  } else {
    const jOf = Int32Array.from(det.names, (n) => index.get(n) as number);
    scatterJoints(det.frontUv, det.frontConf, front, frontConf, t, kd, k, jOf);
    scatterJoints(det.sideUv, det.sideConf, side, sideConf, t, kd, k, jOf);
  }
  cleanView(front, frontConf, t * k);
  cleanView(side, sideConf, t * k);
  return { t, k, front, side, frontConf, sideConf };
}

/** Copies detected joint q (of kd) of one view, every frame, to rig joint `jOf[q]` (of k). */
function scatterJoints(
  uv: Float32Array,
  conf: Float32Array,
  ouv: Float64Array,
  oconf: Float64Array,
  t: number,
  kd: number,
  k: number,
  jOf: Int32Array,
): void {
  for (let f = 0; f < t; f++) {
    for (let q = 0; q < kd; q++) {
      const src = f * kd + q;
      const dst = f * k + (jOf[q] as number);
      ouv[2 * dst] = uv[2 * src] as number;
      ouv[2 * dst + 1] = uv[2 * src + 1] as number;
      oconf[dst] = conf[src] as number;
    }
  }
}

/**
 * A detection with a coordinate or confidence that is not finite, or no confidence, becomes
 * (0, 0) at confidence 0; confidences are capped at 1 (`x - x` is 0 exactly when x is finite).
 */
function cleanView(uv: Float64Array, conf: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const u = uv[2 * i] as number;
    const v = uv[2 * i + 1] as number;
    const c = conf[i] as number;
    if (u - u === 0 && v - v === 0 && c > 0 && c - c === 0) {
      if (c > 1) conf[i] = 1;
    } else {
      uv[2 * i] = 0;
      uv[2 * i + 1] = 0;
      conf[i] = 0;
    }
  }
}

/**
 * Frames whose frame-wise cost stands far above the clip's median (a local minimum, e.g. two
 * angles of a limb pinned at opposite limits) are restarted from the nearest good frame's
 * pose and refitted (those frames alone, gathered into a clip of their own); each keeps
 * whichever of the two solutions costs less.
 */
function reseedStuckFrames(data: FitData, st: FitState, scale: number, windows: WindowScratch): number {
  const { t } = data;
  const cost = frameCosts(data, st, scale, new Float64Array(t));
  const sorted = Float64Array.from(cost).sort();
  const med = sorted[t >> 1] as number;
  const bad: number[] = [];
  for (let f = 0; f < t; f++) if ((cost[f] as number) > 3 * med + 1) bad.push(f);
  if (bad.length === 0 || bad.length > t / 3) return 0;
  const isBad = new Uint8Array(t);
  for (const f of bad) isBad[f] = 1;
  const starts: [number, number][] = [];
  for (const f of bad) {
    let src = -1;
    for (let d = 1; d < t && src < 0; d++) {
      if (f - d >= 0 && !isBad[f - d]) src = f - d;
      else if (f + d < t && !isBad[f + d]) src = f + d;
    }
    if (src >= 0) starts.push([f, src]);
  }
  if (starts.length === 0) return 0;
  const sub = gatherFrames(
    data,
    starts.map(([f]) => f),
  );
  const trial = new FitState(data.model, starts.length);
  starts.forEach(([, src], i) => {
    trial.rootRot.set(st.rootRot.subarray(src * 9, src * 9 + 9), i * 9);
    trial.trans.set(st.trans.subarray(src * 3, src * 3 + 3), i * 3);
    trial.p.set(st.p.subarray(src * st.b * 3, (src + 1) * st.b * 3), i * st.b * 3);
  });
  frameLmLoop(sub, trial, {
    iterations: 4,
    scaleStart: 3 * scale,
    scaleEnd: scale,
    annealFraction: 0.5,
    windows,
  });
  const after = frameCosts(sub, trial, scale, new Float64Array(starts.length));
  let better = 0;
  starts.forEach(([f], i) => {
    if ((after[i] as number) < (cost[f] as number)) {
      st.frames(f, 1).copyFrame(trial.frames(i, 1), 0);
      better++;
    }
  });
  return better;
}

/** A copy of the frames `frames` of `data` (in that order) as a clip of their own. */
function gatherFrames(data: FitData, frames: number[]): FitData {
  const { k } = data;
  const t = frames.length;
  const out = fitData({
    ...data,
    t,
    front: new Float64Array(t * k * 2),
    side: new Float64Array(t * k * 2),
    frontConf: new Float64Array(t * k),
    sideConf: new Float64Array(t * k),
    // Gathered frames are fitted one by one: no temporal terms.
    jerkWeight: new Float64Array(0),
  });
  frames.forEach((f, i) => {
    out.front.set(data.front.subarray(f * k * 2, (f + 1) * k * 2), i * k * 2);
    out.side.set(data.side.subarray(f * k * 2, (f + 1) * k * 2), i * k * 2);
    out.frontConf.set(data.frontConf.subarray(f * k, (f + 1) * k), i * k);
    out.sideConf.set(data.sideConf.subarray(f * k, (f + 1) * k), i * k);
  });
  return out;
}

/** Median absolute residual of confident, inlying detections, px (robust noise estimate). */
function measuredNoise(data: FitData, st: FitState): number {
  const { t, k, layout } = data;
  const proj = new ViewProjection(layout);
  const r = new Float64Array(4 * t * k);
  let n = 0;
  for (let i = 0; i < t * k; i++) {
    const v = proj.row(st.x[3 * i + 2] as number);
    if ((data.frontConf[i] as number) > 0) {
      r[n++] = Math.abs(proj.frontU(st.x[3 * i] as number) - (data.front[2 * i] as number));
      r[n++] = Math.abs(v - (data.front[2 * i + 1] as number));
    }
    if ((data.sideConf[i] as number) > 0) {
      r[n++] = Math.abs(proj.sideU(st.x[3 * i + 1] as number) - (data.side[2 * i] as number));
      r[n++] = Math.abs(v - (data.side[2 * i + 1] as number));
    }
  }
  if (n === 0) return NOISE_REF_PX;
  const med = selectKth(r.subarray(0, n), n >> 1);
  // A frame-wise fit absorbs part of the noise (about n of every 4K coordinates per frame).
  const dof = Math.max(0.2, 1 - (3 + 3 * st.b) / (4 * k));
  const noise = (1.4826 * med) / Math.sqrt(dof);
  return Number.isFinite(noise) ? noise : NOISE_REF_PX;
}

function scaledWeights(w: FitWeights, s: number): FitWeights {
  return fitWeights({
    jerk: w.jerk * s,
    jerkLever: w.jerkLever,
    order: w.order,
    velocity: w.velocity * s,
    rest: w.rest * s,
    rootJerk: w.rootJerk * s,
    rootTurnJerk: w.rootTurnJerk * s,
    jointAccel: w.jointAccel * s,
    ground: w.ground,
  });
}

/**
 * `w` with its temporal priors rescaled from `ref` fps to the clip's `fps` (see
 * `FitOptions.weightsFps`): each prior on an n-th difference over frames by (fps / ref)^n.
 */
function frameRateWeights(w: FitWeights, fps: number, ref: number | null | undefined): FitWeights {
  const r = ref === null ? 1 : fps / (ref ?? 30);
  if (r === 1 || !(r > 0) || !Number.isFinite(r)) return w;
  return fitWeights({
    ...w,
    jerk: w.jerk * r ** w.order,
    velocity: w.velocity * r,
    rootJerk: w.rootJerk * r ** 3,
    rootTurnJerk: w.rootTurnJerk * r ** 3,
    jointAccel: w.jointAccel * r ** 2,
  });
}

/**
 * Fits a rig to two-view detections: sync checks (and a warp of the front view), a robust
 * start (triangulation, Kabsch root, analytic IK), a frame-wise robust Levenberg-Marquardt
 * stage with the Cauchy scale annealed from 40 px to 6 px, left/right swap fixing, then a
 * whole-clip Gauss-Newton stage with the temporal priors (angle jerk, angular velocity,
 * joint acceleration, root smoothness), a pull to rest and the ground term for the feet.
 * Rig joints missing from the detections, or never confidently seen, are fitted from the
 * priors alone (they stay near rest relative to their parents).
 *
 * The detections' `frontUv` / `sideUv` are layout px (as `mocap detect` writes det.npz); their
 * `calib` records how the clip was mapped onto the layout and is not applied again.
 *
 * ```ts
 * const { motion } = fit(model, det, { layout, creature: creatureInfo(model, creatureJson) });
 * ```
 */
export function fit(model: RigModel, det: Detections, options: FitOptions = {}): FitResult {
  const start = performance.now();
  if ((options.frameTiming ?? 'auto') === 'auto') {
    const timing = estimateFrameTiming(det);
    if (timing)
      return clipFrames(
        fit(model, detectionsOnSourceGrid(det, timing), { ...options, frameTiming: 'even' }),
        timing,
        det.fps,
        start,
      );
  }
  const file = options.file ?? 'det.npz';
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const info = options.creature ?? { feet: [], pairs: [], swapUnits: [], groups: {} };
  const views = viewData(model, det, file);
  const sync: SyncReport = options.sync === false ? emptySyncReport() : syncChecks(views, info.feet);
  const fitModel = orthonormalRigModel(model);
  const base = frameRateWeights(
    fitWeights({ ...DEFAULT_FIT_WEIGHTS, ...options.weights }),
    det.fps,
    options.weightsFps,
  );
  const leverWeights =
    base.jerkLever === 0
      ? new Float64Array(0)
      : jerkWeightsOfScales(jerkScales(fitModel, base.jerkLever), views.t);
  const data = fitData({
    model: fitModel,
    layout,
    ...views,
    feet: Int32Array.from(info.feet),
    weights: base,
    jerkWeight: leverWeights,
    chains: keypointChains(fitModel),
  });
  const st = new FitState(fitModel, views.t);
  const stages: Record<string, number> = {};
  const tick = timer(stages);
  initialPose(data, st);
  const windows: WindowScratch = new Map();
  tick('init');
  const frameIt = options.frameIterations ?? 4;
  const s1 = options.scaleEnd ?? 6;
  frameLmLoop(data, st, { iterations: frameIt, scaleStart: 40, scaleEnd: s1, annealFraction: 0.85, windows });
  const reseeded = reseedStuckFrames(data, st, s1, windows);
  if ((options.fixSwaps ?? true) && info.swapUnits.length > 0) {
    const fixed = fixSwaps(data, st, info);
    sync.swaps_fixed = fixed;
    if (fixed.front + fixed.side > 0)
      frameLmLoop(data, st, { iterations: 2, scaleStart: s1, scaleEnd: s1, windows });
  }
  tick('frame stage');
  const noisePx = measuredNoise(data, st);
  const s =
    options.noiseAdaptive === false ? 1 : Math.min(100, Math.max(1e-4, (noisePx / NOISE_REF_PX) ** 2));
  data.weights = scaledWeights(base, s);
  const clipIt = options.clipIterations ?? 3;
  const counts = { clipSteps: 0, cgIterations: 0, reseeded, lags: 0 };
  const clipWindows = {
    ...(options.clipWindow === undefined ? {} : { window: options.clipWindow }),
    ...(options.clipPad === undefined ? {} : { pad: options.clipPad }),
  };
  const tally = (r: LoopReport): void => {
    counts.clipSteps += r.attempts ?? 0;
    counts.cgIterations += r.cgIterations;
  };
  const rep = clipLmLoop(data, st, {
    iterations: clipIt,
    scaleStart: s1,
    scaleEnd: s1,
    windows,
    ...clipWindows,
    ...(options.cgIterations === undefined ? {} : { cgIterations: options.cgIterations }),
    ...(options.cgLater === undefined ? {} : { cgLater: options.cgLater }),
    ...(options.schwarz === undefined ? {} : { schwarz: options.schwarz }),
    ...(options.gaussSeidel === undefined ? {} : { gaussSeidel: options.gaussSeidel }),
    ...(options.refreshEvery === undefined ? {} : { refreshEvery: options.refreshEvery }),
  });
  tally(rep);
  const robust = options.robustJerk ?? 0;
  for (let round = 0; robust > 0 && round < (options.robustRounds ?? 2); round++) {
    data.jerkWeight = robustJerkWeights(data, st, leverWeights, robust);
    tally(
      clipLmLoop(data, st, {
        iterations: options.robustIterations ?? 2,
        scaleStart: s1,
        scaleEnd: s1,
        windows,
        ...clipWindows,
      }),
    );
  }
  const lag = options.lagRelease === undefined ? DEFAULT_LAG_RELEASE : options.lagRelease;
  if (lag) {
    const released = laggingJerkWeights(data, st, data.jerkWeight, noisePx, lag);
    counts.lags = released.lags;
    if (released.lags > 0) {
      data.jerkWeight = released.weights;
      tally(
        clipLmLoop(data, st, {
          iterations: options.lagIterations ?? 2,
          scaleStart: s1,
          scaleEnd: s1,
          windows,
          ...clipWindows,
        }),
      );
    }
  }
  if ((options.fixSwaps ?? true) && info.swapUnits.length > 0) {
    // A second look with the smooth whole-clip fit, which a swapped frame cannot drag along:
    // its own joints at each frame are the prediction (a line through the neighbours lags a
    // fast paw by tens of px, and a swap there reads no better than the labels).
    const again = fixSwaps(data, st, info, 6, 'fit');
    sync.swaps_fixed.front += again.front;
    sync.swaps_fixed.side += again.side;
    if (again.front + again.side > 0)
      tally(clipLmLoop(data, st, { iterations: 2, scaleStart: s1, scaleEnd: s1, windows, ...clipWindows }));
  }
  tick('clip stage');
  assertFinite(st, file);
  const { motion, joints } = toMotion(model, st, det.fps, data, sync, 0, frameIt + clipIt);
  tick('output');
  const seconds = (performance.now() - start) / 1000;
  motion.fit = {
    seconds,
    iterations: frameIt + clipIt,
    method: `frame-wise LM + clip Gauss-Newton, block Gauss-Seidel PCG (${rep.cgIterations} CG)`,
  };
  return { motion, joints, seconds, noisePx, stages, counts, timing: null };
}

/** A fit on the source's time grid cut back to the clip's frames (`timing.sourceFrames`) at the clip's `fps`. */
function clipFrames(r: FitResult, timing: FrameTiming, fps: number, start: number): FitResult {
  const src = timing.sourceFrames;
  const k = r.motion.names.length;
  const joints = new Float64Array(src.length * k * 3);
  for (let f = 0; f < src.length; f++)
    joints.set(r.joints.subarray(src[f] * k * 3, (src[f] + 1) * k * 3), f * k * 3);
  const pick = <T>(rows: T[]): T[] => Array.from(src, (s) => rows[s] as T);
  const seconds = (performance.now() - start) / 1000;
  const m = r.motion;
  const motion: MotionJson = {
    ...m,
    fps,
    trans: pick(m.trans),
    root_quat: pick(m.root_quat),
    euler: pick(m.euler),
    joints: pick(m.joints),
    reproj_px: { ...m.reproj_px, per_frame: pick(m.reproj_px.per_frame) },
    // the sync checks ran on the grid: their lag in the clip's frames
    sync: { ...m.sync, lag_frames: (m.sync.lag_frames * fps) / timing.sourceFps },
    frame_timing: { source_fps: timing.sourceFps, source_frames: Array.from(src) },
    ...(m.fit ? { fit: { ...m.fit, seconds } } : {}),
  };
  return { ...r, motion, joints, seconds, timing };
}

/**
 * A last guard (no input known to reach it): a fitted pose that is not finite is a clear error
 * naming the detections file, never a NaN in motion.json.
 */
function assertFinite(st: FitState, file: string): void {
  for (let f = 0; f < st.t; f++) {
    const ok =
      st.trans.subarray(f * 3, f * 3 + 3).every(Number.isFinite) &&
      st.rootRot.subarray(f * 9, f * 9 + 9).every(Number.isFinite) &&
      st.e.subarray(f * st.b * 3, (f + 1) * st.b * 3).every(Number.isFinite);
    if (!ok) {
      throw new FileError(
        `solve: ${file}: front_uv: the fit left frame ${f} without a finite pose; the detections cannot be fitted.`,
        file,
        'front_uv',
      );
    }
  }
}

/** Builds motion.json from a fitted state, and its joints (T x K x 3) flat; joints by the exact (Blender) FK of `model`. */
function toMotion(
  model: RigModel,
  st: FitState,
  fps: number,
  data: FitData,
  sync: SyncReport,
  seconds: number,
  iterations: number,
): { motion: MotionJson; joints: Float64Array } {
  const t = st.t;
  const b = st.b;
  const k = model.keypoints.length;
  const rows: MotionRows = { trans: [], rootQuat: [], euler: [], joints: [] };
  const joints = new Float64Array(t * k * 3);
  const buf: PoseBuffers = {
    q: new Float64Array(4),
    rootRot: new Float64Array(9),
    euler: new Float64Array(b * 3),
    rot: new Float64Array(b * 9),
    pos: new Float64Array(b * 3),
    pre: new Float64Array(b * 9),
  };
  for (let f = 0; f < t; f++) motionFrame(model, st, f, buf, rows, joints);
  const motion: MotionJson = {
    fps,
    bones: model.bones.slice(),
    names: model.keypoints.map((x) => x.name),
    trans: rows.trans,
    root_quat: rows.rootQuat,
    euler: rows.euler,
    joints: rows.joints,
    reproj_px: reprojection(data, joints),
    sync,
    fit: { seconds, iterations, method: 'frame-wise LM + clip Gauss-Newton' },
  };
  return { motion, joints };
}

/** motion.json's per-frame arrays, filled by {@link motionFrame}. */
interface MotionRows {
  trans: [number, number, number][];
  rootQuat: [number, number, number, number][];
  euler: [number, number, number][][];
  joints: [number, number, number][][];
}

/**
 * Scratch of {@link motionFrame}: a quaternion, the root's rotation, one frame's angles and pose
 * (`pre` as the fit's FK fills it, so that FK runs the code the fit has compiled).
 */
interface PoseBuffers {
  q: Float64Array;
  rootRot: Float64Array;
  euler: Float64Array;
  rot: Float64Array;
  pos: Float64Array;
  pre: Float64Array;
}

/**
 * Frame f of motion.json (translation, root quaternion on the previous frame's side, Euler
 * angles) and its joints, posed by `model` exactly as `forwardKinematics` poses motion.json: the
 * same arithmetic on the same numbers, read from the state instead of the nested arrays (a
 * function of its own: it is optimised after a few frames).
 */
function motionFrame(
  model: RigModel,
  st: FitState,
  f: number,
  buf: PoseBuffers,
  rows: MotionRows,
  joints: Float64Array,
): void {
  const b = st.b;
  const k = model.keypoints.length;
  const q = buf.q;
  rows.trans.push([st.trans[f * 3] as number, st.trans[f * 3 + 1] as number, st.trans[f * 3 + 2] as number]);
  quatFromMat3(q, st.rootRot.subarray(f * 9, f * 9 + 9));
  let w: [number, number, number, number] = [q[3] as number, q[0] as number, q[1] as number, q[2] as number];
  const prev = f > 0 ? (rows.rootQuat[f - 1] as [number, number, number, number]) : null;
  if (prev && w[0] * prev[0] + w[1] * prev[1] + w[2] * prev[2] + w[3] * prev[3] < 0)
    w = [-w[0], -w[1], -w[2], -w[3]];
  rows.rootQuat.push(w);
  const row: [number, number, number][] = [];
  for (let i = 0; i < b; i++) {
    const e = st.eulerOf(f, i, [0, 0, 0]) as [number, number, number];
    row.push(e);
    buf.euler[i * 3] = e[0];
    buf.euler[i * 3 + 1] = e[1];
    buf.euler[i * 3 + 2] = e[2];
  }
  rows.euler.push(row);
  quatWxyzToMat3(buf.rootRot, 0, w);
  poseFrame(model, buf.rootRot, 0, st.trans, f * 3, buf.euler, 0, buf.rot, buf.pos, buf.pre);
  keypointsFromPose(model, buf.rot, buf.pos, joints, f * k * 3);
  const jrow: [number, number, number][] = [];
  for (let j = 0; j < k; j++) {
    const o = (f * k + j) * 3;
    jrow.push([joints[o] as number, joints[o + 1] as number, joints[o + 2] as number]);
  }
  rows.joints.push(jrow);
}

/** Reprojection error of joints (T x K x 3) against the observations, px. */
function reprojection(data: FitData, x: Float64Array): MotionJson['reproj_px'] {
  const proj = new ViewProjection(data.layout);
  const { t, k } = data;
  let sf = 0;
  let wf = 0;
  let ss = 0;
  let wsum = 0;
  const perFrame: number[] = [];
  for (let f = 0; f < t; f++) {
    let s = 0;
    let w = 0;
    for (let j = 0; j < k; j++) {
      const i = f * k + j;
      const v = proj.row(x[3 * i + 2] as number);
      const cf = data.frontConf[i] as number;
      if (cf > 0) {
        const e = Math.hypot(
          proj.frontU(x[3 * i] as number) - (data.front[2 * i] as number),
          v - (data.front[2 * i + 1] as number),
        );
        sf += cf * e;
        wf += cf;
        s += cf * e;
        w += cf;
      }
      const cs = data.sideConf[i] as number;
      if (cs > 0) {
        const e = Math.hypot(
          proj.sideU(x[3 * i + 1] as number) - (data.side[2 * i] as number),
          v - (data.side[2 * i + 1] as number),
        );
        ss += cs * e;
        wsum += cs;
        s += cs * e;
        w += cs;
      }
    }
    perFrame.push(w > 0 ? s / w : 0);
  }
  return {
    mean: wf + wsum > 0 ? (sf + ss) / (wf + wsum) : 0,
    front: wf > 0 ? sf / wf : 0,
    side: wsum > 0 ? ss / wsum : 0,
    per_frame: perFrame,
  };
}

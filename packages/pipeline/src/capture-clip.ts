import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ApplyView, applyMotion, type BlenderProgress } from '@mocap/blender-bridge';
import { creaturePaths, type Detections, FileError, type MotionJson, withOutputLock } from '@mocap/layout';
import { composeFrame, probeVideo, readPng, writeShowcase } from '@mocap/media';
import { calibrationSummary, type DetectEvent, detectClip } from '@mocap/reader';
import { type FitOptions, skeletonPairs, solveContext, solveDetections } from '@mocap/solver';
import { defaultReader } from './default-reader.js';
import { type RefineMode, refineSetup } from './refine-setup.js';
import { renderFeed } from './render-feed.js';
import { requireReader } from './require-reader.js';
import { requireRigged } from './require-rigged.js';

/**
 * Fit settings for refined detections (stage 2's keypoints are projections of one posed mesh, so
 * consistent frame to frame): the priors keep their 2 px tuning instead of growing with the
 * residuals of the few keypoints the mesh places badly (jaw, tail tip), and the robust scale ends
 * at 3 px (docs/benchmarks.md, issue 7, compares it with the default settings).
 */
export const REFINED_FIT: Readonly<Pick<FitOptions, 'noiseAdaptive' | 'scaleEnd'>> = Object.freeze({
  noiseAdaptive: false,
  scaleEnd: 3,
});

/** What {@link captureClip} reports while it runs. */
export type CaptureEvent =
  | { stage: 'detect'; detect: DetectEvent }
  | { stage: 'solve' }
  | { stage: 'apply'; blender?: BlenderProgress }
  | { stage: 'showcase' };

/** Options of {@link captureClip}. */
export interface CaptureOptions {
  clip: string;
  creature: string;
  /** @default `<creature>/runs/reader`, else `<creature>/reader` ({@link defaultReader}) */
  reader?: string | undefined;
  /** Stage-2 refinement with the creature's skinned mesh. @default 'auto' (on when rigged) */
  refine?: RefineMode | undefined;
  /** @default `<creature>/runs/capture/<clip name>` */
  out?: string | undefined;
  /**
   * `auto`: fit the clip to the creature's ref.png (from `mocap ref`), as a generated clip may be
   * scaled or shifted; `identity`: the clip is the layout. @default 'auto'
   */
  calib?: 'auto' | 'identity' | undefined;
  /**
   * The creature's own size change over the clip (a zoom the backdrop cannot show), detectClip's
   * `creatureZoom`: fitted by the refinement where the framing drifts and taken out (`follow`),
   * or from stage 1's peaks and reported (`report`) or taken out (`apply`). @default 'follow'
   */
  creatureZoom?: 'follow' | 'report' | 'apply' | undefined;
  /**
   * Size of the 3/4 showcase render (creature.json `camera`, Workbench, no anti-aliasing), scaled
   * to showcase.mp4's `height`; the two views are used without a camera. @default 640 x 480
   */
  showcase?: { width: number; height: number } | undefined;
  /** Output height of showcase.mp4. @default 720 */
  height?: number | undefined;
  /** Render the rig and write showcase.mp4; false: the animation only (keys, joints.json, exports). @default true */
  renders?: boolean | undefined;
  /** Also write `animation.bvh` / `animation.fbx` beside `animation.glb`. @default true */
  bvh?: boolean | undefined;
  /** @default true */
  fbx?: boolean | undefined;
  /** Blender processes sharing the renders (see applyMotion's `processes`). @default 1 */
  renderProcesses?: number | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
}

/** The files {@link captureClip} wrote. */
export interface CaptureResult {
  dir: string;
  det: string;
  motion: string;
  joints: string;
  glb: string;
  /** null with `bvh: false` */
  bvh: string | null;
  /** null with `fbx: false` */
  fbx: string | null;
  /** Folder of the rig's renders; null with `renders: false`. */
  renders: string | null;
  /** null with `renders: false` */
  showcase: string | null;
  frames: number;
  backend: string;
  /** Whether detect refined the heatmap peaks (stage 2); the peaks are then in `det_heatmaps.npz`. */
  refined: boolean;
  reprojPx: number;
  /** motion.json's `frame_timing`: the source the clip's frames were picked unevenly from, when the fit found one; else null. */
  frameTiming: NonNullable<MotionJson['frame_timing']> | null;
  /** How detect calibrated the clip to the layout (`calib: 'auto'`): the mapping, its drift, the frames it skipped; else null. */
  calibration: ReturnType<typeof calibrationSummary> | null;
  /** Wall-clock seconds per stage; the stages follow one another, so they add up to `total`. */
  seconds: CaptureSeconds;
}

/**
 * Wall-clock seconds of {@link captureClip}'s stages, in order; they add up to `total`.
 */
export interface CaptureSeconds {
  /** Checks, the solver's rig model and the refinement's set-up (skinned mesh, rigged glTF). */
  setup: number;
  /**
   * The reader's heatmap stage: detectClip's wall time less `refine` (with refinement, stage 1
   * runs in a worker thread while refinement works, so this is the part refinement did not hide).
   */
  detect: number;
  /** Stage 2's refinement (segmentation + fit of the skinned mesh), 0 without it. */
  refine: number;
  solve: number;
  /** Blender: keys, joints.json, exports, renders (showcase.mp4 encodes meanwhile). */
  apply: number;
  /** What showcase.mp4 takes after apply ended (0 with `renders: false`). */
  showcase: number;
  total: number;
}

/**
 * `mocap capture` as a function: detect (the trained reader, both views) -> `det.npz` -> solve
 * (the rig fit) -> `motion.json` -> apply (Blender keys the rig) -> `joints.json`, renders,
 * `animation.glb` -> `showcase.mp4` (the clip with its detections beside the rig rendered from
 * creature.json's 3/4 `camera`, or its two views when it has none). Every file is written
 * atomically under `<creature>/runs/capture/<clip name>/` (or `out`), which is locked from the
 * start (lockOutput): a second capture into it is refused, naming the first run.
 *
 * ```ts
 * const r = await captureClip({ clip: 'trot.mp4', creature: 'creatures/wolf' }, (e) => console.log(e.stage));
 * ```
 */
export async function captureClip(
  opts: CaptureOptions,
  onEvent: (e: CaptureEvent) => void = () => {},
): Promise<CaptureResult> {
  const name = path.basename(opts.clip, path.extname(opts.clip));
  const dir = opts.out ?? path.join(creaturePaths(opts.creature).capture, name);
  return withOutputLock(dir, { operation: 'capture', signal: opts.signal }, () =>
    captureInto(opts, dir, onEvent),
  );
}

async function captureInto(
  opts: CaptureOptions,
  dir: string,
  onEvent: (e: CaptureEvent) => void,
): Promise<CaptureResult> {
  const start = performance.now();
  const paths = creaturePaths(opts.creature);
  const reader = opts.reader ?? defaultReader(opts.creature);
  await probeVideo(opts.clip);
  requireReader('capture', reader);
  requireRigged('capture', opts.creature);
  const calib = opts.calib ?? 'auto';
  if (calib === 'auto' && !existsSync(paths.refPng)) {
    throw new FileError(
      `capture: ${paths.refPng}: missing; run \`mocap ref\` first (or pass --calib identity for a clip that is the layout).`,
      paths.refPng,
      '',
    );
  }
  const ctx = await solveContext('capture', opts.creature);
  const refine = await refineSetup('capture', ctx, opts.creature, opts.refine ?? 'auto', {
    env: opts.env,
    signal: opts.signal,
  });
  const det = path.join(dir, 'det.npz');
  const signal = opts.signal;
  let t0 = start;
  const lap = () => {
    const t = performance.now();
    const s = (t - t0) / 1000;
    t0 = t;
    return s;
  };
  const setupSeconds = lap();
  const detected = await detectClip(
    {
      clip: opts.clip,
      reader,
      ...(calib === 'auto' ? { ref: paths.refPng } : {}),
      out: det,
      layout: ctx.creature.layout,
      calib,
      ...(opts.creatureZoom ? { creatureZoom: opts.creatureZoom } : {}),
      joints: ctx.model.keypoints.map((k) => k.name),
      ...(refine ? { refine } : {}),
    },
    (e) => onEvent({ stage: 'detect', detect: e }),
    signal,
  );
  const detectWall = lap();
  // An abort that came as detect finished stops here, before the next stage writes anything.
  signal?.throwIfAborted();
  onEvent({ stage: 'solve' });
  const motion = path.join(dir, 'motion.json');
  const solved = await solveDetections(ctx, det, motion, refine ? REFINED_FIT : {});
  const solveSeconds = lap();
  signal?.throwIfAborted();
  onEvent({ stage: 'apply' });
  const withRenders = opts.renders ?? true;
  const camera = ctx.creature.json?.camera !== undefined;
  const views: ApplyView[] = withRenders ? (camera ? ['showcase'] : ['front', 'side']) : [];
  const feed = renderFeed(views);
  // A failing showcase stops Blender; the caller's signal stops both.
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let applySeconds = 0;
  const applying = applyMotion({
    creature: opts.creature,
    motion,
    out: dir,
    renders: withRenders ? 'all' : [],
    views,
    ...(camera && withRenders ? { showcase: opts.showcase ?? { width: 640, height: 480 } } : {}),
    aa: 'OFF',
    formats: { glb: true, bvh: opts.bvh ?? true, fbx: opts.fbx ?? true },
    ...(opts.renderProcesses ? { processes: opts.renderProcesses } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    signal: both,
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    onProgress: (p) => {
      feed.report(p);
      onEvent({ stage: 'apply', blender: p });
    },
  }).then(
    (r) => {
      applySeconds = lap();
      feed.end();
      if (withRenders) onEvent({ stage: 'showcase' });
      return r;
    },
    (err: unknown) => {
      feed.fail(err);
      throw err;
    },
  );
  const showcase = withRenders ? path.join(dir, 'showcase.mp4') : null;
  const layout = ctx.creature.layout;
  const renders = path.join(dir, 'renders');
  const read = async (t: number) => {
    const n = String(t).padStart(5, '0');
    if (camera) return readPng(path.join(renders, `${n}_showcase.png`));
    const front = await readPng(path.join(renders, `${n}_front.png`));
    const side = await readPng(path.join(renders, `${n}_side.png`));
    return composeFrame(front, side, layout);
  };
  const detections: Detections = detected.detections;
  const names = new Set(detections.names);
  const bones = skeletonPairs(ctx.model).filter(([a, b]) => names.has(a) && names.has(b));
  // showcase.mp4 encodes each frame as soon as Blender has rendered it.
  const showing = showcase
    ? writeShowcase(showcase, opts.clip, feed.frames(solved.motion.trans.length, read), {
        fps: detections.fps,
        detections,
        bones,
        height: opts.height ?? 720,
        preset: 'veryfast',
        signal: both,
      }).catch((err: unknown) => {
        stop.abort();
        throw err;
      })
    : Promise.resolve(0);
  const [applied, shown] = await Promise.allSettled([applying, showing]);
  if (applied.status === 'rejected') throw applied.reason;
  if (shown.status === 'rejected') throw shown.reason;
  const showcaseSeconds = withRenders ? lap() : 0;
  const a = applied.value;
  const refineSeconds = detected.refineSeconds;
  return {
    dir,
    det,
    motion,
    joints: a.joints,
    glb: a.glb as string,
    bvh: a.bvh,
    fbx: a.fbx,
    renders: a.renders,
    showcase,
    frames: showcase ? shown.value : a.frames,
    backend: detected.backend,
    refined: refine !== undefined,
    reprojPx: solved.motion.reproj_px.mean,
    frameTiming: solved.motion.frame_timing ?? null,
    calibration: detected.calibration && calibrationSummary(detected.calibration),
    seconds: {
      setup: setupSeconds,
      detect: Math.max(0, detectWall - refineSeconds),
      refine: Math.min(refineSeconds, detectWall),
      solve: solveSeconds,
      apply: applySeconds,
      showcase: showcaseSeconds,
      total: (performance.now() - start) / 1000,
    },
  };
}

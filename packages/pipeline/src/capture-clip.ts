import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyMotion, type BlenderProgress } from '@mocap/blender-bridge';
import { creaturePaths, type Detections, FileError } from '@mocap/layout';
import { composeFrame, probeVideo, readPng, writeShowcase } from '@mocap/media';
import { calibrationSummary, type DetectEvent, detectClip } from '@mocap/reader';
import { type FitOptions, skeletonPairs, solveContext, solveDetections } from '@mocap/solver';
import { defaultReader } from './default-reader.js';
import { type RefineMode, refineSetup } from './refine-setup.js';
import { requireReader } from './require-reader.js';
import { requireRigged } from './require-rigged.js';

/**
 * Fit settings for refined detections (stage 2's keypoints are projections of one posed mesh, so
 * consistent frame to frame): the priors keep their 2 px tuning instead of growing with the
 * residuals of the few keypoints the mesh places badly (jaw, tail tip), and the robust scale ends
 * at 3 px. Measured on a rendered 120-frame wolf clip: 1.58 cm mean joint error where the default
 * settings give 2.22 cm.
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
  /** Size of the 3/4 showcase render (creature.json `camera`); the two views are used without a camera. @default 960 x 720 */
  showcase?: { width: number; height: number } | undefined;
  /** Output height of showcase.mp4. @default 720 */
  height?: number | undefined;
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
  showcase: string;
  frames: number;
  backend: string;
  /** Whether detect refined the heatmap peaks (stage 2); the peaks are then in `det_heatmaps.npz`. */
  refined: boolean;
  reprojPx: number;
  /** How detect calibrated the clip to the layout (`calib: 'auto'`): the mapping, its drift, the frames it skipped; else null. */
  calibration: ReturnType<typeof calibrationSummary> | null;
  /** Wall-clock seconds per stage. */
  seconds: { detect: number; solve: number; apply: number; showcase: number };
}

/**
 * `mocap capture` as a function: detect (the trained reader, both views) -> `det.npz` -> solve
 * (the rig fit) -> `motion.json` -> apply (Blender keys the rig) -> `joints.json`, renders,
 * `animation.glb` -> `showcase.mp4` (the clip with its detections beside the rig rendered from
 * creature.json's 3/4 `camera`, or its two views when it has none). Every file is written
 * atomically under `<creature>/runs/capture/<clip name>/`.
 *
 * ```ts
 * const r = await captureClip({ clip: 'trot.mp4', creature: 'creatures/wolf' }, (e) => console.log(e.stage));
 * ```
 */
export async function captureClip(
  opts: CaptureOptions,
  onEvent: (e: CaptureEvent) => void = () => {},
): Promise<CaptureResult> {
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
  const name = path.basename(opts.clip, path.extname(opts.clip));
  const dir = opts.out ?? path.join(paths.capture, name);
  const det = path.join(dir, 'det.npz');
  const signal = opts.signal;
  let t0 = performance.now();
  const lap = () => {
    const t = performance.now();
    const s = (t - t0) / 1000;
    t0 = t;
    return s;
  };
  const detected = await detectClip(
    {
      clip: opts.clip,
      reader,
      ...(calib === 'auto' ? { ref: paths.refPng } : {}),
      out: det,
      layout: ctx.creature.layout,
      calib,
      joints: ctx.model.keypoints.map((k) => k.name),
      ...(refine ? { refine } : {}),
    },
    (e) => onEvent({ stage: 'detect', detect: e }),
    signal,
  );
  const detectSeconds = lap();
  onEvent({ stage: 'solve' });
  const motion = path.join(dir, 'motion.json');
  const solved = await solveDetections(ctx, det, motion, refine ? REFINED_FIT : {});
  const solveSeconds = lap();
  onEvent({ stage: 'apply' });
  const camera = ctx.creature.json?.camera !== undefined;
  const showcaseSize = opts.showcase ?? { width: 960, height: 720 };
  const applied = await applyMotion({
    creature: opts.creature,
    motion,
    out: dir,
    renders: 'all',
    ...(camera ? { showcase: showcaseSize } : {}),
    formats: { glb: true, bvh: false, fbx: false },
    ...(opts.env ? { env: opts.env } : {}),
    ...(signal ? { signal } : {}),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    onProgress: (p) => onEvent({ stage: 'apply', blender: p }),
  });
  const applySeconds = lap();
  onEvent({ stage: 'showcase' });
  const renders = applied.renders as string;
  const layout = ctx.creature.layout;
  async function* rendered() {
    for (let t = 0; t < applied.frames; t++) {
      const n = String(t).padStart(5, '0');
      if (camera) yield await readPng(path.join(renders, `${n}_showcase.png`));
      else {
        const front = await readPng(path.join(renders, `${n}_front.png`));
        const side = await readPng(path.join(renders, `${n}_side.png`));
        yield composeFrame(front, side, layout);
      }
    }
  }
  const showcase = path.join(dir, 'showcase.mp4');
  const detections: Detections = detected.detections;
  const names = new Set(detections.names);
  const bones = skeletonPairs(ctx.model).filter(([a, b]) => names.has(a) && names.has(b));
  const frames = await writeShowcase(showcase, opts.clip, rendered(), {
    fps: detections.fps,
    detections,
    bones,
    height: opts.height ?? 720,
    preset: 'veryfast',
    ...(signal ? { signal } : {}),
  });
  return {
    dir,
    det,
    motion,
    joints: applied.joints,
    glb: applied.glb as string,
    showcase,
    frames,
    backend: detected.backend,
    refined: refine !== undefined,
    reprojPx: solved.motion.reproj_px.mean,
    calibration: detected.calibration && calibrationSummary(detected.calibration),
    seconds: { detect: detectSeconds, solve: solveSeconds, apply: applySeconds, showcase: lap() },
  };
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { applyMotion, type BlenderProgress, creaturePaths } from '@mocap/blender-bridge';
import {
  atomicWriteJson,
  type Detections,
  FileError,
  type MotionJson,
  RigInfo,
  readDetections,
  readJsonFile,
} from '@mocap/layout';
import { composeFrame, probeVideo, readPng, writeShowcase } from '@mocap/media';
import { type DetectEvent, type DetectOptions, detectClip } from '@mocap/reader';
import {
  type CreatureInfo,
  creatureInfo,
  type FitOptions,
  fit,
  type RigModel,
  readRigModel,
  readSolverCreature,
  type SolverCreature,
} from '@mocap/solver';
import { riggedGlb } from './rigged-glb.js';

/**
 * Throws unless `reader` holds a trained reader (`model.json`); the message names the commands
 * that make one.
 */
export function requireReader(op: string, reader: string): void {
  const model = path.join(reader, 'model.json');
  if (!existsSync(model)) {
    throw new FileError(
      `${op}: ${model}: no trained reader there; run \`mocap dataset\` then \`mocap train\` first (or pass --reader DIR).`,
      model,
      '',
    );
  }
}

/**
 * Throws unless `mocap prep` and `mocap rig` have run for the creature at `dir` (rigged.blend and
 * rig_info.json, which apply and render need); the message names the commands.
 */
export function requireRigged(op: string, dir: string): void {
  const p = creaturePaths(dir);
  for (const file of [p.riggedBlend, p.rigInfo]) {
    if (!existsSync(file)) {
      throw new FileError(`${op}: ${file}: missing; run \`mocap prep\` then \`mocap rig\` first.`, file, '');
    }
  }
}

/**
 * The reader folder a creature uses by default: `<creature>/runs/reader` when a reader was trained
 * there, else `<creature>/reader` (the weights shipped with the creature).
 */
export function defaultReader(dir: string): string {
  const trained = path.join(creaturePaths(dir).runs, 'reader');
  if (existsSync(path.join(trained, 'model.json'))) return trained;
  const shipped = path.join(dir, 'reader');
  return existsSync(path.join(shipped, 'model.json')) ? shipped : trained;
}

/** Whether detect refines its heatmap peaks with the creature's skinned mesh (stage 2). */
export type RefineMode = 'auto' | 'on' | 'off';

/**
 * detect's `refine` options for a creature: its rigged glTF (exported from rigged.blend by
 * {@link riggedGlb} when missing or stale), rig_info.json and creature.json's paint groups.
 * `auto` refines when the creature is rigged, `on` requires it (a clear error otherwise), `off`
 * never refines (undefined).
 */
export async function refineSetup(
  op: string,
  ctx: SolveContext,
  dir: string,
  mode: RefineMode,
  opts: { env?: NodeJS.ProcessEnv | undefined; signal?: AbortSignal | undefined } = {},
): Promise<NonNullable<DetectOptions['refine']> | undefined> {
  if (mode === 'off') return undefined;
  const p = creaturePaths(ctx.creature.dir ?? dir);
  const rigged = existsSync(p.riggedBlend) && existsSync(p.rigInfo);
  if (!rigged) {
    if (mode === 'auto') return undefined;
    throw new FileError(
      `${op}: ${p.riggedBlend}: refinement needs the rigged creature (its skinned mesh); run \`mocap prep\` then \`mocap rig\` first, or pass --no-refine.`,
      p.riggedBlend,
      '',
    );
  }
  const glb = await riggedGlb(p.dir, opts);
  const info = await readJsonFile(op, p.rigInfo, RigInfo);
  const length = new Map(info.bones.map((b) => [b.name, b.length]));
  const keypoints = info.keypoints.map((k) => ({ ...k, length: length.get(k.bone) ?? 0 }));
  const paint = (ctx.creature.json?.paint ?? []).map((g) => ({ name: g.name, bones: [...g.bones] }));
  return { glb, keypoints, paint };
}

/** A creature ready for the solver: resolved, its rig model (rig_info.json when rigged) and info. */
export interface SolveContext {
  creature: SolverCreature;
  model: RigModel;
  info: CreatureInfo;
}

/** Reads what {@link solveDetections} needs of the creature in `dir`. */
export async function solveContext(op: string, dir: string): Promise<SolveContext> {
  const creature = await readSolverCreature(op, dir);
  const p = creaturePaths(creature.dir ?? dir);
  const model = await readRigModel(op, existsSync(p.rigInfo) ? p.rigInfo : p.rigJson);
  return { creature, model, info: creatureInfo(model, creature.json, p.creatureJson) };
}

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

/**
 * The solve stage: det.npz -> motion.json (atomic), with the fitted joints (T x K x 3 flat) and
 * time; `options` adds fit settings (e.g. {@link REFINED_FIT}).
 */
export async function solveDetections(
  ctx: SolveContext,
  det: string,
  out: string,
  options: Omit<FitOptions, 'layout' | 'creature' | 'file'> = {},
): Promise<{ motion: MotionJson; joints: Float64Array; seconds: number }> {
  // det.npz uv are layout px; the fit takes them as they are (`calib` is informational).
  const detections = await readDetections(det);
  const r = fit(ctx.model, detections, {
    ...options,
    layout: ctx.creature.layout,
    creature: ctx.info,
    file: det,
  });
  await atomicWriteJson(out, r.motion);
  return { motion: r.motion, joints: r.joints, seconds: r.seconds };
}

/**
 * The skeleton drawn over the clip: each keypoint joined to the nearest keypoint up the bone
 * chain (its own bone's head for a tail, else an ancestor's tail or head).
 */
export function skeletonPairs(model: RigModel): [string, string][] {
  const at = (bone: number, end: 'head' | 'tail') =>
    model.keypoints.find((k) => k.bone === bone && k.end === end);
  const pairs: [string, string][] = [];
  for (const k of model.keypoints) {
    let up = k.end === 'tail' ? at(k.bone, 'head') : undefined;
    for (let b = model.parent[k.bone] as number; !up && b >= 0; b = model.parent[b] as number) {
      up = at(b, 'tail') ?? at(b, 'head');
    }
    if (up) pairs.push([up.name, k.name]);
  }
  return pairs;
}

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
  const dir = opts.out ?? path.join(paths.runs, 'capture', name);
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
    seconds: { detect: detectSeconds, solve: solveSeconds, apply: applySeconds, showcase: lap() },
  };
}

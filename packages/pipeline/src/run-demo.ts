import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BlenderProgress } from '@mocap/blender-bridge';
import {
  atomicWriteJson,
  creaturePaths,
  ExamReport,
  MotionJson,
  readJsonFile,
  TruthJson,
  withOutputLock,
} from '@mocap/layout';
import { gaitMotion, scoreJoints, solveContext } from '@mocap/solver';
import { type CaptureEvent, type CaptureResult, captureClip } from './capture-clip.js';
import { defaultReader } from './default-reader.js';
import { flatMotionJson } from './flat-motion-json.js';
import { type PrepareEvent, prepareCreature } from './prepare-creature.js';
import { renderMotionClip } from './render-clip.js';
import { requireReader } from './require-reader.js';

/** Options of {@link runDemo}. */
export interface DemoOptions {
  creature: string;
  /** Frames of the known clip. @default 60 */
  frames?: number | undefined;
  /** Seed of the known gait (the rendered exam's `gaitMotion`). @default 1 */
  seed?: number | undefined;
  /** @default 30 */
  fps?: number | undefined;
  /** @default {@link defaultReader} */
  reader?: string | undefined;
  /** Work folder: clip.mp4, truth.json, the capture's files, report.json. @default `<creature>/runs/demo` */
  out?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
  /** Kill a Blender stage after this many ms. @default each stage's own */
  timeoutMs?: number | undefined;
}

/** What {@link runDemo} reports while it runs: set-up, the clip's render, the capture's stages, the score. */
export type DemoEvent =
  | ({ kind: 'prepare' } & PrepareEvent)
  | { kind: 'render'; frames: number; seed: number; blender?: BlenderProgress }
  | ({ kind: 'capture' } & CaptureEvent)
  | { kind: 'score' };

/** Wall-clock seconds of {@link runDemo}'s parts, in order; they add up to `total`. */
export interface DemoSeconds {
  /** prep, rig and ref where missing. */
  prepare: number;
  render: number;
  /** The capture's own stages (see CaptureSeconds). */
  capture: CaptureResult['seconds'];
  score: number;
  total: number;
}

/** What {@link runDemo} wrote and measured. */
export interface DemoResult {
  dir: string;
  /** The known two-view clip and the joints Blender posed for it. */
  clip: string;
  truth: string;
  /** The capture of the clip: animation.glb/.bvh/.fbx, showcase.mp4, ... */
  capture: CaptureResult;
  /** report.json: the captured motion scored against truth.json, per joint in cm. */
  reportFile: string;
  report: ExamReport;
  seconds: DemoSeconds;
}

/**
 * The demo: a known clip through the whole capture, scored. Blender preps, rigs and frames the
 * creature where needed ({@link prepareCreature}), renders the rendered exam's seeded gait
 * (`gaitMotion`) to a two-view clip ({@link renderMotionClip}; truth.json keeps the joints it
 * posed), {@link captureClip} captures that clip as `mocap capture` does (read, refine, fit,
 * apply: animation.glb/.bvh/.fbx, showcase.mp4) and the captured motion.json is scored against
 * truth.json (`scoreJoints`, report.json). Every file goes under `<creature>/runs/demo/`, locked
 * meanwhile (lockOutput): a second demo into it is refused, naming the first run.
 *
 * ```ts
 * const r = await runDemo({ creature: 'creatures/wolf', frames: 60 });
 * console.log(r.capture.glb, r.capture.showcase, r.report.error_cm.mean);
 * ```
 */
export async function runDemo(
  opts: DemoOptions,
  onEvent: (e: DemoEvent) => void = () => {},
): Promise<DemoResult> {
  const dir = opts.out ?? path.join(creaturePaths(opts.creature).runs, 'demo');
  return withOutputLock(dir, { operation: 'demo', signal: opts.signal }, () => demoInto(opts, dir, onEvent));
}

async function demoInto(
  opts: DemoOptions,
  dir: string,
  onEvent: (e: DemoEvent) => void,
): Promise<DemoResult> {
  const start = performance.now();
  let t0 = start;
  const lap = () => {
    const t = performance.now();
    const s = (t - t0) / 1000;
    t0 = t;
    return s;
  };
  const reader = opts.reader ?? defaultReader(opts.creature);
  requireReader('demo', reader);
  const blender = {
    ...(opts.env ? { env: opts.env } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
  };
  await prepareCreature(opts.creature, blender, (e) => onEvent({ kind: 'prepare', ...e }));
  const prepareSeconds = lap();
  const frames = opts.frames ?? 60;
  const seed = opts.seed ?? 1;
  await mkdir(dir, { recursive: true });
  const ctx = await solveContext('demo', opts.creature);
  const known = gaitMotion(ctx.model, ctx.info, { frames, seed, fps: opts.fps ?? 30 });
  const clip = path.join(dir, 'clip.mp4');
  onEvent({ kind: 'render', frames, seed });
  const rendered = await renderMotionClip({
    ...blender,
    creature: opts.creature,
    motion: flatMotionJson(ctx.model, known),
    out: clip,
    op: 'demo',
    onProgress: (p) => onEvent({ kind: 'render', frames, seed, blender: p as BlenderProgress }),
  });
  const truth = path.join(dir, 'truth.json');
  await atomicWriteJson(truth, TruthJson.parse({ seed, frames, fps: known.fps, joints: rendered.joints }));
  const renderSeconds = lap();
  const capture = await captureClip({ ...blender, clip, creature: opts.creature, reader, out: dir }, (e) =>
    onEvent({ kind: 'capture', ...e }),
  );
  lap();
  onEvent({ kind: 'score' });
  const motion = await readJsonFile('demo', capture.motion, MotionJson);
  const names = ctx.model.keypoints.map((k) => k.name);
  if (motion.names.join() !== names.join()) {
    throw new Error(
      `demo: ${capture.motion}: names: expected the rig's keypoints in truth.json's order (${names.join(', ')}), got ${motion.names.join(', ')}.`,
    );
  }
  const report = ExamReport.parse({
    creature: ctx.creature.name,
    mode: 'render',
    frames,
    seed,
    noise_px: 0,
    outliers: 0,
    swaps: 0,
    lag_frames: 0,
    ...scoreJoints(motion.joints.flat(2), rendered.joints.flat(2), names, ctx.info.groups),
    fit_seconds: capture.seconds.solve,
  });
  const reportFile = path.join(dir, 'report.json');
  await atomicWriteJson(reportFile, report);
  const scoreSeconds = lap();
  return {
    dir,
    clip,
    truth,
    capture,
    reportFile,
    report,
    seconds: {
      prepare: prepareSeconds,
      render: renderSeconds,
      capture: capture.seconds,
      score: scoreSeconds,
      total: (performance.now() - start) / 1000,
    },
  };
}

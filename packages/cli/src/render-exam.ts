import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { creaturePaths } from '@mocap/blender-bridge';
import { atomicWriteJson, ExamReport, MotionJson } from '@mocap/layout';
import { type DetectEvent, detectClip } from '@mocap/reader';
import { type FlatMotion, type RigModel, scoreJoints, syntheticMotion } from '@mocap/solver';
import { requireReader, requireRigged, solveContext, solveDetections } from './capture-clip.js';
import { renderMotionClip } from './render-clip.js';

/**
 * A {@link FlatMotion} as motion.json (the solver's conventions are motion.json's); the
 * reprojection and sync blocks are those of a perfect fit, since nothing was fitted.
 */
export function flatMotionJson(model: RigModel, m: FlatMotion): MotionJson {
  const b = model.bones.length;
  const k = model.keypoints.length;
  const rows = <T>(n: number, f: (t: number) => T) => Array.from({ length: n }, (_, t) => f(t));
  const v3 = (a: Float64Array, o: number): [number, number, number] => [
    a[o] as number,
    a[o + 1] as number,
    a[o + 2] as number,
  ];
  return MotionJson.parse({
    fps: m.fps,
    bones: model.bones,
    names: model.keypoints.map((p) => p.name),
    trans: rows(m.frames, (t) => v3(m.trans, 3 * t)),
    root_quat: rows(m.frames, (t) => Array.from(m.rootQuat.subarray(4 * t, 4 * t + 4))),
    euler: rows(m.frames, (t) => rows(b, (i) => v3(m.euler, 3 * (t * b + i)))),
    joints: rows(m.frames, (t) => rows(k, (j) => v3(m.joints, 3 * (t * k + j)))),
    reproj_px: { mean: 0, front: 0, side: 0, per_frame: rows(m.frames, () => 0) },
    sync: {
      paw_agreement: null,
      height_gap_px: 0,
      lag_frames: 0,
      warped: false,
      height_gap_after_px: 0,
      swaps_fixed: { front: 0, side: 0 },
    },
  });
}

/** Options of {@link renderExam}. */
export interface RenderExamOptions {
  creature: string;
  frames: number;
  seed: number;
  /** @default 30 */
  fps?: number;
  /** @default `<creature>/runs/reader` */
  reader?: string | undefined;
  /** Work folder (clip.mp4, det.npz, motion.json, report.json). @default `<creature>/runs/exam/render-seed<seed>` */
  out?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
  onStage?: (stage: 'render' | 'detect' | 'solve', detail?: DetectEvent) => void;
}

/**
 * The rendered exam: a seeded synthetic motion of the creature (the solver's exam motion) is
 * rendered to a two-view clip by Blender, read by the trained reader (capture's detect),
 * fitted (capture's solve) and scored against the joints Blender posed, per joint in cm. No
 * corruption is added (`noise_px`, `outliers`, `swaps` are 0): the reader's own error is measured.
 * Writes clip.mp4, det.npz, motion.json and report.json (all atomically) in its run folder.
 *
 * ```ts
 * const report = await renderExam({ creature: 'creatures/wolf', frames: 60, seed: 1 });
 * report.error_cm.mean;
 * ```
 */
export async function renderExam(opts: RenderExamOptions): Promise<ExamReport> {
  const paths = creaturePaths(opts.creature);
  const reader = opts.reader ?? path.join(paths.runs, 'reader');
  requireReader('exam', reader);
  requireRigged('exam', opts.creature);
  const ctx = await solveContext('exam', opts.creature);
  const dir = opts.out ?? path.join(paths.runs, 'exam', `render-seed${opts.seed}`);
  await mkdir(dir, { recursive: true });
  const truth = syntheticMotion(ctx.model, ctx.info, {
    frames: opts.frames,
    seed: opts.seed,
    fps: opts.fps ?? 30,
  });
  opts.onStage?.('render');
  const clip = path.join(dir, 'clip.mp4');
  const rendered = await renderMotionClip({
    creature: opts.creature,
    motion: flatMotionJson(ctx.model, truth),
    out: clip,
    op: 'exam',
    env: opts.env,
    signal: opts.signal,
  });
  const det = path.join(dir, 'det.npz');
  await detectClip(
    {
      clip,
      reader,
      out: det,
      layout: ctx.creature.layout,
      calib: 'identity',
      joints: ctx.model.keypoints.map((k) => k.name),
    },
    (e) => opts.onStage?.('detect', e),
    opts.signal,
  );
  opts.onStage?.('solve');
  const solved = await solveDetections(ctx, det, path.join(dir, 'motion.json'));
  const names = ctx.model.keypoints.map((k) => k.name);
  const score = scoreJoints(solved.joints, new Float64Array(rendered.joints.flat(2)), names, ctx.info.groups);
  const report = ExamReport.parse({
    creature: ctx.creature.name,
    mode: 'render',
    frames: opts.frames,
    seed: opts.seed,
    noise_px: 0,
    outliers: 0,
    swaps: 0,
    lag_frames: 0,
    ...score,
    fit_seconds: solved.seconds,
  });
  await atomicWriteJson(path.join(dir, 'report.json'), report);
  return report;
}

import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  atomicWriteJson,
  creaturePaths,
  ExamReport,
  readJsonFile,
  TruthJson,
  withOutputLock,
} from '@mocap/layout';
import { type DegradePreset, decodeVideo, encodeVideo, warpScaleShift, writePng } from '@mocap/media';
import { type DetectEvent, detectClip } from '@mocap/reader';
import {
  clipMotion,
  gaitMotion,
  readMotionClip,
  scoreJoints,
  solveContext,
  solveDetections,
} from '@mocap/solver';
import { REFINED_FIT } from './capture-clip.js';
import { defaultReader } from './default-reader.js';
import { type DegradedExam, degradedExams } from './degraded-exam.js';
import { flatMotionJson } from './flat-motion-json.js';
import { type RefineMode, refineSetup } from './refine-setup.js';
import { type RenderClipResult, renderMotionClip } from './render-clip.js';
import { requireReader } from './require-reader.js';
import { requireRigged } from './require-rigged.js';

/** The joints of an earlier render of the same motion (`key`), or null when there is none. */
async function readTruth(
  file: string,
  clip: string,
  key: { seed: number; frames: number; fps: number; motion?: string },
): Promise<RenderClipResult | null> {
  if (!existsSync(file) || !existsSync(clip)) return null;
  const t = await readJsonFile('exam', file, TruthJson);
  if (t.seed !== key.seed || t.frames !== key.frames || t.fps !== key.fps || t.motion !== key.motion)
    return null;
  return { frames: t.joints.length, joints: t.joints };
}

/** The run folder of a motion's exam: `render-<file stem>-<animation>` (characters other than letters, digits, `-` and `_` as `_`). */
function motionExamDir(motion: string): string {
  const hash = motion.lastIndexOf('#');
  const file = hash >= 0 ? motion.slice(0, hash) : motion;
  const name = [path.basename(file, path.extname(file)), hash >= 0 ? motion.slice(hash + 1) : '']
    .filter((x) => x.length > 0)
    .join('-');
  return `render-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Options of {@link renderExam}. */
export interface RenderExamOptions {
  creature: string;
  frames: number;
  seed: number;
  /** @default 30 */
  fps?: number;
  /** @default `<creature>/runs/reader`, else `<creature>/reader` */
  reader?: string | undefined;
  /** Stage-2 refinement (auto: when the creature is rigged, which the exam requires). @default 'auto' */
  refine?: RefineMode | undefined;
  /**
   * Also read the clip scaled and shifted as a generated clip may be: clip px = `scale` x layout px
   * + (`tx`, `ty`) (the frame stays the layout's size; uncovered borders get the wall colour), read
   * with `calib: 'auto'` against ref.png (the creature's, else the clip's first frame, which is
   * the rest pose). @default none (the clip is the layout: `calib: 'identity'`)
   */
  scaleShift?: { scale: number; tx: number; ty: number } | undefined;
  /**
   * Weight of stage 1's heatmap peaks in the refinement (`objective.keypoints`, over
   * `CLIP_OBJECTIVE`). @default CLIP_OBJECTIVE's
   */
  peakWeight?: number | undefined;
  /**
   * Read the clip already rendered in the run folder (clip.mp4 + truth.json from an earlier exam
   * of the same seed, frames and fps) instead of rendering it again. @default false
   */
  reuseClip?: boolean | undefined;
  /**
   * Also read the clip after each of these video-model degradations (`all`: every one at once),
   * seeded by `seed`, calibrated against ref.png as a generated clip is, and score each beside the
   * clean read ({@link degradedExams}; `<out>/degrade-<preset>/`). @default none
   */
  degrade?: DegradePreset[] | undefined;
  /**
   * The truth: a clip of the creature's own skeleton (`file.glb#Animation` or `file.bvh`) on its rig
   * (`clipMotion`: looped to `frames`, at `fps`, grounded) instead of the seeded gait. @default none
   */
  motion?: string | undefined;
  /**
   * Work folder (clip.mp4, truth.json, det.npz, motion.json, report.json).
   * @default `<creature>/runs/exam/render-seed<seed>`; with `motion`, `render-<file stem>-<animation>`
   */
  out?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
  /** Progress: the stage, detect's events, and for `degrade` the preset being read. */
  onStage?: (
    stage: 'render' | 'detect' | 'solve' | 'degrade',
    detail?: DetectEvent,
    preset?: DegradePreset,
  ) => void;
}

/** What {@link renderExam} returns: report.json's content plus what the read cost and, with refinement, the heatmaps' own score. */
export type RenderExamResult = ExamReport & {
  /** The same clip solved from the heatmap peaks alone (stage 1), when refinement ran and that fit succeeded. */
  heatmaps: ExamReport | null;
  /** Why `heatmaps` is null although refinement ran (its fit failed), else null. */
  heatmapsError: string | null;
  /** Seconds of detect (decode + heatmaps + refinement) and of the refinement alone. */
  detectSeconds: number;
  refineSeconds: number;
  backend: string;
  /** The degraded reads (`degrade`), in order; absent without it (the rest is report.json's content). */
  degraded?: DegradedExam[];
};

/**
 * The rendered exam: a seeded gait-like motion of the creature (`gaitMotion`: walk or trot, from
 * the rest pose), or with `motion` a real clip of its own skeleton, is rendered to a two-view clip
 * by Blender, read by the trained reader and, when
 * the creature is rigged, refined with its skinned mesh (capture's detect), fitted (capture's
 * solve) and scored against the joints Blender posed, per joint in cm. No corruption is added
 * (`noise_px`, `outliers`, `swaps` are 0): the reader's own error is measured; with `degrade`, the
 * clip is also read after video-model degradations, each scored beside the clean read. Writes
 * clip.mp4, det.npz (+ det_heatmaps.npz), motion.json and report.json (+ report_heatmaps.json,
 * report_degraded.json) atomically in its run folder, locked meanwhile (lockOutput): a second
 * exam into it is refused, naming the first run.
 *
 * ```ts
 * const report = await renderExam({ creature: 'creatures/wolf', frames: 60, seed: 1 });
 * report.error_cm.mean;
 * ```
 */
export async function renderExam(opts: RenderExamOptions): Promise<RenderExamResult> {
  const run = opts.motion ? motionExamDir(opts.motion) : `render-seed${opts.seed}`;
  const dir = opts.out ?? path.join(creaturePaths(opts.creature).exam, run);
  return withOutputLock(dir, { operation: 'exam', signal: opts.signal }, () => examInto(opts, dir));
}

async function examInto(opts: RenderExamOptions, dir: string): Promise<RenderExamResult> {
  const paths = creaturePaths(opts.creature);
  const reader = opts.reader ?? defaultReader(opts.creature);
  requireReader('exam', reader);
  requireRigged('exam', opts.creature);
  const ctx = await solveContext('exam', opts.creature);
  const refine = await refineSetup('exam', ctx, opts.creature, opts.refine ?? 'auto', {
    env: opts.env,
    signal: opts.signal,
  });
  await mkdir(dir, { recursive: true });
  const fps = opts.fps ?? 30;
  const truth = opts.motion
    ? clipMotion(
        ctx.model,
        ctx.info,
        await readMotionClip(opts.motion, 'exam'),
        { frames: opts.frames, fps },
        'exam',
      ).motion
    : gaitMotion(ctx.model, ctx.info, { frames: opts.frames, seed: opts.seed, fps });
  const clip = path.join(dir, 'clip.mp4');
  const truthFile = path.join(dir, 'truth.json');
  const key = {
    seed: opts.seed,
    frames: opts.frames,
    fps: truth.fps,
    ...(opts.motion ? { motion: opts.motion } : {}),
  };
  let rendered = opts.reuseClip ? await readTruth(truthFile, clip, key) : null;
  if (!rendered) {
    opts.onStage?.('render');
    rendered = await renderMotionClip({
      creature: opts.creature,
      motion: flatMotionJson(ctx.model, truth),
      out: clip,
      op: 'exam',
      env: opts.env,
      signal: opts.signal,
    });
    await atomicWriteJson(truthFile, TruthJson.parse({ ...key, joints: rendered.joints }));
  }
  let read = clip;
  let ref: string | undefined;
  /** The creature's ref.png, else the clip's first frame (the rest pose) written beside it. */
  const refPng = async () => {
    if (existsSync(paths.refPng)) return paths.refPng;
    const own = path.join(dir, 'ref.png');
    for await (const f of decodeVideo(clip, { maxFrames: 1 })) await writePng(own, f);
    return own;
  };
  if (opts.scaleShift) {
    const layout = ctx.creature.layout;
    ref = await refPng();
    read = path.join(dir, 'clip-scaled.mp4');
    const { scale, tx, ty } = opts.scaleShift;
    async function* scaled() {
      for await (const f of decodeVideo(clip)) {
        yield warpScaleShift(f, [scale, scale, tx, ty], f.width, f.height, layout.colours.wall);
      }
    }
    await encodeVideo(read, scaled(), { fps: truth.fps, preset: 'veryfast' });
  }
  const det = path.join(dir, 'det.npz');
  const detectOptions = {
    reader,
    layout: ctx.creature.layout,
    joints: ctx.model.keypoints.map((k) => k.name),
    ...(refine
      ? {
          refine: {
            ...refine,
            ...(opts.peakWeight !== undefined
              ? { options: { objective: { keypoints: opts.peakWeight } } }
              : {}),
          },
        }
      : {}),
  };
  const detected = await detectClip(
    {
      ...detectOptions,
      clip: read,
      out: det,
      ...(ref ? { calib: 'auto' as const, ref } : { calib: 'identity' as const }),
    },
    (e) => opts.onStage?.('detect', e),
    opts.signal,
  );
  opts.onStage?.('solve');
  const names = ctx.model.keypoints.map((k) => k.name);
  const truthJoints = new Float64Array(rendered.joints.flat(2));
  const score = async (file: string, motion: string, fitOptions: typeof REFINED_FIT | object) => {
    const solved = await solveDetections(ctx, file, path.join(dir, motion), fitOptions);
    return ExamReport.parse({
      creature: ctx.creature.name,
      mode: 'render',
      ...(opts.motion ? { motion: opts.motion } : {}),
      frames: opts.frames,
      seed: opts.seed,
      noise_px: 0,
      outliers: 0,
      swaps: 0,
      lag_frames: 0,
      ...scoreJoints(solved.joints, truthJoints, names, ctx.info.groups),
      fit_seconds: solved.seconds,
    });
  };
  const report = await score(det, 'motion.json', refine ? REFINED_FIT : {});
  await atomicWriteJson(path.join(dir, 'report.json'), report);
  let heatmaps: ExamReport | null = null;
  let heatmapsError: string | null = null;
  if (detected.heatmapsFile) {
    // A side score: a failed fit of the raw peaks (a barely trained reader) does not fail the exam.
    try {
      heatmaps = await score(detected.heatmapsFile, 'motion_heatmaps.json', {});
      await atomicWriteJson(path.join(dir, 'report_heatmaps.json'), heatmaps);
    } catch (err) {
      heatmapsError = `exam: ${detected.heatmapsFile}: the fit of the heatmap peaks alone failed: ${(err as Error).message.split('\n')[0]}`;
    }
  }
  const degraded =
    opts.degrade && opts.degrade.length > 0
      ? await degradedExams(opts.degrade, {
          ctx,
          clip,
          ref: ref ?? (await refPng()),
          truth: truthJoints,
          seed: opts.seed,
          dir,
          detect: detectOptions,
          refined: refine !== undefined,
          signal: opts.signal,
          onStage: (preset, e) => opts.onStage?.(e ? 'detect' : 'degrade', e, preset),
        })
      : [];
  if (degraded.length > 0) {
    await atomicWriteJson(path.join(dir, 'report_degraded.json'), { clean: report, degraded });
  }
  return {
    ...report,
    heatmaps,
    heatmapsError,
    detectSeconds: detected.seconds,
    refineSeconds: detected.refineSeconds,
    backend: detected.backend,
    ...(degraded.length > 0 ? { degraded } : {}),
  };
}

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { atomicWriteJson, ExamReport } from '@mocap/layout';
import { type DegradeParams, type DegradePreset, degradeClip } from '@mocap/media';
import {
  calibrationSummary,
  type DetectEvent,
  type DetectOptions,
  detectClip,
  viewsSummary,
} from '@mocap/reader';
import { type SolveContext, scoreJoints, solveDetections } from '@mocap/solver';
import { REFINED_FIT } from './capture-clip.js';

/** One degraded read of the rendered exam's clip: what was drawn, how detect calibrated it, the score. */
export interface DegradedExam {
  /** The preset (`all`: every preset at once). */
  preset: DegradePreset;
  /** The parameters drawn ({@link degradeClip}). */
  params: DegradeParams;
  frames: number;
  fps: number;
  width: number;
  height: number;
  /** How detect calibrated the degraded clip (null when it refused it: see `error`). */
  calibration: ReturnType<typeof calibrationSummary> | null;
  /** Where detect's calibration puts the frame's corners and centre against the degradation's truth, layout px over the frames. */
  calibErrorPx: { mean: number; max: number } | null;
  /** The fade-in and view lag detect found (null when it refused the clip). */
  views: ReturnType<typeof viewsSummary> | null;
  /**
   * The source rate the fit found the frames unevenly picked from (motion.json `frame_timing`),
   * and whether it put every frame at the source frame the degradation showed; null: even steps
   * (or detect refused the clip).
   */
  timing: { sourceFps: number; right: boolean } | null;
  /** The score against the truth (resampled to the degraded frames), or null when detect or the fit failed. */
  report: ExamReport | null;
  /** Why `report` is null. */
  error: string | null;
}

/** What {@link degradedExams} needs of the clean run. */
export interface DegradedExamInput {
  ctx: SolveContext;
  /** The rendered clip (layout px). */
  clip: string;
  /** ref.png to calibrate the degraded clips against. */
  ref: string;
  /** The truth, T x J x 3 (Blender's joints per frame of `clip`). */
  truth: Float64Array;
  seed: number;
  /** Run folder: each preset reads in `<dir>/degrade-<preset>/`. */
  dir: string;
  /** detectClip's options beside clip, out, ref and calib (reader, layout, joints, refine). */
  detect: Omit<DetectOptions, 'clip' | 'out' | 'ref' | 'calib'>;
  refined: boolean;
  signal?: AbortSignal | undefined;
  onStage?: ((preset: DegradePreset, detail?: DetectEvent) => void) | undefined;
}

/** Largest-corner error (mean and max over frames, layout px) of a found T x 4 calibration against the true one. */
function calibError(
  found: Float64Array,
  truth: Float64Array,
  w: number,
  h: number,
): { mean: number; max: number } {
  const n = Math.min(found.length, truth.length) / 4;
  let sum = 0;
  let max = 0;
  for (let t = 0; t < n; t++) {
    let worst = 0;
    for (const [x, y] of [
      [0, 0],
      [w, h],
      [w / 2, h / 2],
    ] as const) {
      worst = Math.max(
        worst,
        Math.abs(found[4 * t]! * x + found[4 * t + 2]! - (truth[4 * t]! * x + truth[4 * t + 2]!)),
        Math.abs(found[4 * t + 1]! * y + found[4 * t + 3]! - (truth[4 * t + 1]! * y + truth[4 * t + 3]!)),
      );
    }
    sum += worst;
    max = Math.max(max, worst);
  }
  return { mean: sum / Math.max(1, n), max };
}

/**
 * The rendered exam's clip read again after each degradation of `presets` (issue 14's video-model
 * artefacts, seeded by the exam's seed: {@link degradeClip}), calibrated against ref.png as a
 * generated clip is, fitted and scored against the truth resampled to the degraded frames (the
 * `fps` preset keeps fewer). A preset whose clip detect refuses or whose fit fails is reported with
 * its error, not thrown. Writes clip.mp4, det.npz, motion.json and report.json per preset.
 *
 * ```ts
 * const runs = await degradedExams(['codec', 'fps'], { ctx, clip, ref, truth, seed: 1, dir, detect, refined: true });
 * runs[0].report?.error_cm.mean;
 * ```
 */
export async function degradedExams(
  presets: readonly DegradePreset[],
  input: DegradedExamInput,
): Promise<DegradedExam[]> {
  const { ctx } = input;
  const names = ctx.model.keypoints.map((k) => k.name);
  const J = names.length;
  const out: DegradedExam[] = [];
  for (const preset of presets) {
    input.onStage?.(preset);
    const dir = path.join(input.dir, `degrade-${preset}`);
    await mkdir(dir, { recursive: true });
    const d = await degradeClip(input.clip, path.join(dir, 'clip.mp4'), {
      presets: [preset],
      seed: input.seed,
      layout: ctx.creature.layout,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const base = {
      preset,
      params: d.params,
      frames: d.frames,
      fps: d.fps,
      width: d.width,
      height: d.height,
    };
    try {
      const det = path.join(dir, 'det.npz');
      const detected = await detectClip(
        { ...input.detect, clip: d.out, out: det, ref: input.ref, calib: 'auto' },
        (e) => input.onStage?.(preset, e),
        input.signal,
      );
      const calibration = detected.calibration && calibrationSummary(detected.calibration);
      const found =
        detected.detections.calibFrames ??
        (() => {
          const c = new Float64Array(4 * d.frames);
          for (let t = 0; t < d.frames; t++) c.set(detected.detections.calib, 4 * t);
          return c;
        })();
      const calibErrorPx = calibError(found, d.calib, d.width, d.height);
      // The truth of degraded frame k is the source frame it shows.
      const truth = new Float64Array(d.frames * J * 3);
      for (const [k, t] of d.frameMap.entries())
        truth.set(input.truth.subarray(t * J * 3, (t + 1) * J * 3), k * J * 3);
      const solved = await solveDetections(
        ctx,
        det,
        path.join(dir, 'motion.json'),
        input.refined ? REFINED_FIT : {},
      );
      const report = ExamReport.parse({
        creature: ctx.creature.name,
        mode: 'render',
        frames: d.frames,
        seed: input.seed,
        noise_px: 0,
        outliers: 0,
        swaps: 0,
        lag_frames: 0,
        ...scoreJoints(solved.joints, truth, names, ctx.info.groups),
        fit_seconds: solved.seconds,
      });
      await atomicWriteJson(path.join(dir, 'report.json'), report);
      const views = viewsSummary(detected.fade, detected.lag);
      const ft = solved.motion.frame_timing;
      const timing = ft
        ? { sourceFps: ft.source_fps, right: ft.source_frames.every((s, k) => s === d.frameMap[k]) }
        : null;
      out.push({ ...base, calibration, calibErrorPx, views, timing, report, error: null });
    } catch (err) {
      if (input.signal?.aborted) throw err;
      out.push({
        ...base,
        calibration: null,
        calibErrorPx: null,
        views: null,
        timing: null,
        report: null,
        error: (err as Error).message.split('\n')[0]!,
      });
    }
  }
  return out;
}

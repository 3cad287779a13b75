import path from 'node:path';
import type { ExamReport } from '@mocap/layout';
import { type DegradePreset, parseDegradePresets } from '@mocap/media';
import type { RefineMode } from '@mocap/pipeline';
import { degradedSummary, type RenderExamOptions, type RenderExamResult, renderExam } from '@mocap/pipeline';
import { examCreature } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { requireCreature } from './blender-progress.js';
import { parseRefine } from './capture.js';
import { queueProgress } from './queue-progress.js';

function num(
  name: string,
  v: string | undefined,
  fallback: number,
  min = 0,
  max = Number.POSITIVE_INFINITY,
): number {
  if (v === undefined) return fallback;
  const x = Number(v);
  if (!Number.isFinite(x) || x < min || x > max) {
    throw new UsageError(`exam: --${name}: expected a number in [${min}, ${max}], got "${v}".`);
  }
  return x;
}

/** The exam report as the lines `mocap exam` prints. */
export function examSummary(report: ExamReport): string {
  const e = report.error_cm;
  const corruption =
    report.mode === 'render'
      ? 'rendered in Blender, read by the trained reader'
      : `noise ${report.noise_px} px, outliers ${report.outliers}, swaps ${report.swaps}`;
  let text =
    `${report.creature} (${report.mode}${report.motion ? `, motion ${report.motion}` : ''}): ${report.frames} frames, seed ${report.seed}, ${corruption}\n` +
    `error cm: mean ${e.mean.toFixed(3)}, median ${e.median.toFixed(3)}, p95 ${e.p95.toFixed(3)}, max ${e.max.toFixed(3)}; fit ${report.fit_seconds.toFixed(3)} s\n`;
  for (const [g, s] of Object.entries(report.per_group)) {
    text += `  ${g.padEnd(12)} mean ${s.mean.toFixed(3)}  p95 ${s.p95.toFixed(3)}\n`;
  }
  return text;
}

/** Progress of the rendered exam on stderr: a line per stage; detect's and refine's frames (in place on a terminal). */
export function renderExamProgress(stderr: NodeJS.WritableStream): NonNullable<RenderExamOptions['onStage']> {
  const tty = (stderr as { isTTY?: boolean }).isTTY === true;
  const done = { frames: 0, refine: 0 };
  return (stage, e, preset) => {
    if (stage !== 'detect') {
      stderr.write(`${stage}${preset ? ` ${preset}` : ''}...\n`);
      return;
    }
    if (!e || e.phase === 'calib' || e.phase === 'views' || e.phase === 'zoom' || e.phase === 'noise') return;
    done[e.phase] = e.done;
    const name = e.phase === 'frames' ? 'detect' : 'refine';
    if (tty) {
      const line = `detect ${done.frames}/${e.total}${done.refine ? `, refine ${done.refine}/${e.total}` : ''} frames`;
      stderr.write(`\r${line}${e.phase === 'refine' && e.done === e.total ? '\n' : ''}`);
    } else if (e.done === e.total) stderr.write(`${name}: ${e.total} frames\n`);
  };
}

/** `--scale-shift s,tx,ty` of the rendered exam. */
function parseScaleShift(v: string | undefined): RenderExamOptions['scaleShift'] {
  if (v === undefined) return undefined;
  const n = v.split(',').map(Number);
  if (n.length !== 3 || !n.every(Number.isFinite) || !((n[0] as number) > 0.5 && (n[0] as number) < 2)) {
    throw new UsageError(`exam: --scale-shift: Expected scale,tx,ty with a scale in (0.5, 2), got "${v}".`);
  }
  return { scale: n[0] as number, tx: n[1] as number, ty: n[2] as number };
}

/** `--degrade PRESET[,PRESET...]` of the rendered exam. */
function parseDegrade(v: string | undefined): DegradePreset[] | undefined {
  if (v === undefined) return undefined;
  try {
    return parseDegradePresets(v);
  } catch (err) {
    throw new UsageError(`exam: --degrade: ${(err as Error).message.replace(/^degrade: /, '')}`);
  }
}

/** `mocap exam --render`: a seeded gait (or `--motion`) rendered in Blender, read by the reader (+ refinement), fitted, scored. */
async function runRenderExam(
  ctx: Parameters<Command['run']>[0],
  creature: string | undefined,
  frames: number,
  seed: number,
  reader: string | undefined,
  refine: RefineMode,
  scaleShift: RenderExamOptions['scaleShift'],
  peakWeight: number | undefined,
  reuseClip: boolean,
  degrade: DegradePreset[] | undefined,
  motion: string | undefined,
): Promise<RenderExamResult> {
  const dir = requireCreature(creature, ctx);
  return renderExam({
    creature: dir,
    frames,
    seed,
    reader: reader ? path.resolve(ctx.cwd, reader) : undefined,
    refine,
    scaleShift,
    peakWeight,
    reuseClip,
    degrade,
    motion,
    env: ctx.env,
    signal: ctx.signal,
    onStage: renderExamProgress(ctx.stderr),
  });
}

/** `mocap exam --render --queue URL --seeds 1,2,3`: each seed's rendered exam as a job on the queue; each report printed. */
async function runQueuedExam(
  ctx: Parameters<Command['run']>[0],
  url: string,
  creature: string | undefined,
  frames: number,
  seeds: number[],
  reader: string | undefined,
  refine: RefineMode,
): Promise<ExamReport[]> {
  const { renderExamOnQueue } = await import('@mocap/queue');
  const exams = await renderExamOnQueue({
    url,
    creature: requireCreature(creature, ctx),
    seeds,
    frames,
    reader: reader ? path.resolve(ctx.cwd, reader) : undefined,
    refine,
    signal: ctx.signal,
    onEvent: queueProgress(ctx.stderr),
  });
  return exams.map((e) => e.report);
}

/** `--seeds 1,2,3`: distinct whole numbers. */
function parseSeeds(v: string): number[] {
  const seeds = v.split(',').map((x) => Number(x.trim()));
  if (seeds.some((x) => !Number.isInteger(x)) || new Set(seeds).size !== seeds.length) {
    throw new UsageError(`exam: --seeds: expected distinct whole numbers like 1,2,3, got "${v}".`);
  }
  return seeds;
}

/** The rendered exam's extra lines: the heatmap stage's own score and detect's throughput. */
export function renderExamSummary(r: RenderExamResult): string {
  let text = r.heatmapsError ? `${r.heatmapsError}\n` : '';
  if (r.heatmaps) {
    const e = r.heatmaps.error_cm;
    text += `heatmaps alone (no refinement): mean ${e.mean.toFixed(3)}, median ${e.median.toFixed(3)}, p95 ${e.p95.toFixed(3)} cm\n`;
  }
  const fps = r.frames / r.detectSeconds;
  text += `detect${r.heatmaps ? ' + refine' : ''}: ${fps.toFixed(2)} two-view frames/s on ${r.backend} (refinement ${r.refineSeconds.toFixed(1)} s of ${r.detectSeconds.toFixed(1)} s)\n`;
  return text;
}

/** `--motion FILE.glb#ANIMATION` or `FILE.bvh`, resolved against the working folder (the `#` part kept). */
function resolveMotion(cwd: string, v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (v.trim() === '')
    throw new UsageError('exam: --motion: expected FILE.glb#ANIMATION or FILE.bvh, got "".');
  return path.resolve(cwd, v);
}

/** `mocap exam --synthetic`: a random motion (or `--motion`, a real clip) with known truth through projection, corruption and the fit. */
export const examCommand: Command = {
  name: 'exam',
  summary: 'Score the chain on a seeded motion with known truth (per-joint error in cm)',
  usage:
    'mocap exam --synthetic --creature DIR [--motion FILE.glb#ANIMATION|FILE.bvh] [--frames T] [--noise-px S] [--outliers F] [--swaps F]\n' +
    '                          [--lag L] [--seed N] [--json]\n' +
    '       mocap exam --render --creature DIR [--motion FILE.glb#ANIMATION|FILE.bvh] [--reader DIR] [--frames T] [--seed N]\n' +
    '                          [--refine auto|on|off] [--scale-shift s,tx,ty]\n' +
    '                          [--peak-weight W] [--reuse-clip] [--degrade codec,resize,reframe,drift,colour,fps,ghost,lag,fade,all] [--json]\n' +
    '       mocap exam --render --queue URL --creature DIR [--seed N | --seeds N,N,...] [--frames T] [--reader DIR] [--refine auto|on|off] [--json]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      synthetic: { type: 'boolean', default: false },
      render: { type: 'boolean', default: false },
      reader: { type: 'string' },
      refine: { type: 'string', default: 'auto' },
      'scale-shift': { type: 'string' },
      'peak-weight': { type: 'string' },
      'reuse-clip': { type: 'boolean', default: false },
      degrade: { type: 'string' },
      motion: { type: 'string' },
      creature: { type: 'string' },
      frames: { type: 'string' },
      'noise-px': { type: 'string' },
      outliers: { type: 'string' },
      swaps: { type: 'string' },
      lag: { type: 'string' },
      seed: { type: 'string' },
      seeds: { type: 'string' },
      queue: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.synthetic === values.render)
      throw new UsageError('exam: give exactly one of --synthetic and --render.');
    const degrade = parseDegrade(values.degrade);
    const motion = resolveMotion(ctx.cwd, values.motion);
    if (degrade && !values.render) throw new UsageError('exam: --degrade goes with --render.');
    if (values.seeds !== undefined && !values.queue) throw new UsageError('exam: --seeds goes with --queue.');
    if (values.queue) {
      if (!values.render) throw new UsageError('exam: --queue goes with --render.');
      const given: string[] = (['scale-shift', 'peak-weight', 'degrade', 'motion'] as const).filter(
        (k) => values[k] !== undefined,
      );
      if (values['reuse-clip']) given.push('reuse-clip');
      if (given.length > 0) throw new UsageError(`exam: --${given[0]} is not supported with --queue.`);
      if (values.seeds !== undefined && values.seed !== undefined) {
        throw new UsageError('exam: give --seed or --seeds, not both.');
      }
      const reports = await runQueuedExam(
        ctx,
        values.queue,
        values.creature,
        Math.round(num('frames', values.frames, 60, 2, 100000)),
        values.seeds !== undefined
          ? parseSeeds(values.seeds)
          : [Math.round(num('seed', values.seed, 1, -1e9, 1e9))],
        values.reader,
        parseRefine(values.refine),
      );
      for (const r of reports) ctx.stdout.write(values.json ? `${JSON.stringify(r)}\n` : examSummary(r));
      return 0;
    }
    const report: ExamReport | RenderExamResult = values.render
      ? await runRenderExam(
          ctx,
          values.creature,
          // A clip is looped to 120 frames, as the synthetic exam's default; the seeded gait renders 60.
          Math.round(num('frames', values.frames, motion ? 120 : 60, 2, 100000)),
          Math.round(num('seed', values.seed, 1, -1e9, 1e9)),
          values.reader,
          parseRefine(values.refine),
          parseScaleShift(values['scale-shift']),
          values['peak-weight'] === undefined
            ? undefined
            : num('peak-weight', values['peak-weight'], 0, 0, 1000),
          values['reuse-clip'],
          degrade,
          motion,
        )
      : await examCreature(
          values.creature,
          {
            frames: Math.round(num('frames', values.frames, 120, 2, 100000)),
            noisePx: num('noise-px', values['noise-px'], 2),
            outliers: num('outliers', values.outliers, 0.05, 0, 1),
            swaps: num('swaps', values.swaps, 0, 0, 1),
            lagFrames: Math.round(num('lag', values.lag, 0, -1000, 1000)),
            seed: Math.round(num('seed', values.seed, 1, -1e9, 1e9)),
            motion,
          },
          ctx.env,
          ctx.cwd,
        );
    if (values.json) {
      ctx.stdout.write(`${JSON.stringify(report)}\n`);
      return 0;
    }
    ctx.stdout.write(examSummary(report));
    if ('detectSeconds' in report) {
      const r = report as RenderExamResult;
      ctx.stdout.write(renderExamSummary(r));
      if (r.degraded) ctx.stdout.write(degradedSummary(r, r.degraded));
    }
    return 0;
  },
};

import path from 'node:path';
import type { ExamReport } from '@mocap/layout';
import { examCreature } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { renderExam } from '../render-exam.js';
import { requireCreature } from './blender-progress.js';

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
    `${report.creature} (${report.mode}): ${report.frames} frames, seed ${report.seed}, ${corruption}\n` +
    `error cm: mean ${e.mean.toFixed(3)}, median ${e.median.toFixed(3)}, p95 ${e.p95.toFixed(3)}, max ${e.max.toFixed(3)}; fit ${report.fit_seconds.toFixed(3)} s\n`;
  for (const [g, s] of Object.entries(report.per_group)) {
    text += `  ${g.padEnd(12)} mean ${s.mean.toFixed(3)}  p95 ${s.p95.toFixed(3)}\n`;
  }
  return text;
}

/** `mocap exam --render`: a seeded motion rendered in Blender, read by the reader, fitted, scored. */
async function runRenderExam(
  ctx: Parameters<Command['run']>[0],
  creature: string | undefined,
  frames: number,
  seed: number,
  reader: string | undefined,
): Promise<ExamReport> {
  const dir = requireCreature(creature, ctx);
  return renderExam({
    creature: dir,
    frames,
    seed,
    reader: reader ? path.resolve(ctx.cwd, reader) : undefined,
    env: ctx.env,
    signal: ctx.signal,
    onStage: (stage, e) => {
      if (stage !== 'detect') ctx.stderr.write(`${stage}...\n`);
      else if (e?.phase === 'frames' && e.done === e.total) ctx.stderr.write(`detect: ${e.total} frames\n`);
    },
  });
}

/** `mocap exam --synthetic`: a random motion with known truth through projection, corruption and the fit. */
export const examCommand: Command = {
  name: 'exam',
  summary: 'Score the chain on a seeded motion with known truth (per-joint error in cm)',
  usage:
    'mocap exam --synthetic --creature DIR [--frames T] [--noise-px S] [--outliers F] [--swaps F] [--lag L] [--seed N] [--json]\n' +
    '       mocap exam --render --creature DIR [--reader DIR] [--frames T] [--seed N] [--json]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      synthetic: { type: 'boolean', default: false },
      render: { type: 'boolean', default: false },
      reader: { type: 'string' },
      creature: { type: 'string' },
      frames: { type: 'string' },
      'noise-px': { type: 'string' },
      outliers: { type: 'string' },
      swaps: { type: 'string' },
      lag: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (values.synthetic === values.render)
      throw new UsageError('exam: give exactly one of --synthetic and --render.');
    const report = values.render
      ? await runRenderExam(
          ctx,
          values.creature,
          Math.round(num('frames', values.frames, 60, 2, 100000)),
          Math.round(num('seed', values.seed, 1, -1e9, 1e9)),
          values.reader,
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
          },
          ctx.env,
          ctx.cwd,
        );
    if (values.json) {
      ctx.stdout.write(`${JSON.stringify(report)}\n`);
      return 0;
    }
    ctx.stdout.write(examSummary(report));
    return 0;
  },
};

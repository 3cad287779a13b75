import { examCreature } from '@mocap/solver';
import { type Command, parseCommandArgs, UsageError } from '../command.js';

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

/** `mocap exam --synthetic`: a random motion with known truth through projection, corruption and the fit. */
export const examCommand: Command = {
  name: 'exam',
  summary: 'Score the fit on a seeded synthetic motion (per-joint error in cm)',
  usage:
    'mocap exam --synthetic --creature DIR [--frames T] [--noise-px S] [--outliers F] [--swaps F] [--lag L] [--seed N] [--json]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      synthetic: { type: 'boolean', default: false },
      creature: { type: 'string' },
      frames: { type: 'string' },
      'noise-px': { type: 'string' },
      outliers: { type: 'string' },
      swaps: { type: 'string' },
      lag: { type: 'string' },
      seed: { type: 'string' },
      json: { type: 'boolean', default: false },
    });
    if (!values.synthetic)
      throw new UsageError('exam: only --synthetic is available here (the render exam needs Blender).');
    const report = await examCreature(
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
    const e = report.error_cm;
    ctx.stdout.write(
      `${report.creature}: ${report.frames} frames, seed ${report.seed}, noise ${report.noise_px} px, outliers ${report.outliers}, swaps ${report.swaps}\n` +
        `error cm: mean ${e.mean.toFixed(3)}, median ${e.median.toFixed(3)}, p95 ${e.p95.toFixed(3)}, max ${e.max.toFixed(3)}; fit ${report.fit_seconds.toFixed(3)} s\n`,
    );
    for (const [g, s] of Object.entries(report.per_group)) {
      ctx.stdout.write(`  ${g.padEnd(12)} mean ${s.mean.toFixed(3)}  p95 ${s.p95.toFixed(3)}\n`);
    }
    return 0;
  },
};

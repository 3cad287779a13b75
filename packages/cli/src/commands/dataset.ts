import path from 'node:path';
import { renderDataset } from '@mocap/blender-bridge';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { blenderOptions, blenderProgress, requireCreature } from './blender-progress.js';
import { queueProgress } from './queue-progress.js';

function whole(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`--${name}: Expected a whole number >= ${min}, got "${v}".`);
  return n;
}

/** `mocap dataset`: seeded random poses rendered from both cameras with their true joints. */
export const datasetCommand: Command = {
  name: 'dataset',
  summary: 'Render N random poses from both views with true joints, resumable (Blender)',
  usage:
    'mocap dataset [--creature DIR] --count N [--seed S] [--out DIR] [--aa OFF|FXAA|5|8] [--spread F] [--transparent] [--timeout SEC] [--queue URL --shards N]',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      count: { type: 'string' },
      seed: { type: 'string', default: '0' },
      out: { type: 'string' },
      aa: { type: 'string', default: 'OFF' },
      spread: { type: 'string' },
      transparent: { type: 'boolean', default: false },
      runs: { type: 'string' },
      timeout: { type: 'string' },
      queue: { type: 'string' },
      shards: { type: 'string' },
    });
    const creature = requireCreature(values.creature, ctx);
    const count = whole('count', values.count, 1);
    if (count === undefined) throw new UsageError('--count N is required.');
    const spread = values.spread === undefined ? undefined : Number(values.spread);
    if (spread !== undefined && !(spread >= 0 && spread <= 1)) {
      throw new UsageError(`--spread: Expected a fraction in 0..1, got "${values.spread}".`);
    }
    const seed = whole('seed', values.seed, 0) ?? 0;
    const out = values.out ? path.resolve(ctx.cwd, values.out) : undefined;
    const shards = whole('shards', values.shards, 1);
    if (shards !== undefined && !values.queue) throw new UsageError('--shards N needs --queue URL.');
    if (values.queue) {
      if (values.runs) throw new UsageError('--runs cannot be used with --queue: give --out DIR.');
      if (values.timeout)
        throw new UsageError('--timeout cannot be used with --queue (each shard scales its own).');
      const { renderDatasetOnQueue } = await import('@mocap/queue');
      const r = await renderDatasetOnQueue({
        url: values.queue,
        creature,
        count,
        shards: shards ?? 1,
        seed,
        out,
        aa: values.aa,
        transparent: values.transparent,
        spread,
        signal: ctx.signal,
        onEvent: queueProgress(ctx.stderr),
      });
      const rendered = r.shards.reduce((a, s) => a + s.rendered, 0);
      const skipped = r.shards.reduce((a, s) => a + s.skipped, 0);
      ctx.stdout.write(
        `${r.dir}: ${rendered} rendered, ${skipped} already there, in ${r.shards.length} shards\n`,
      );
      return 0;
    }
    const bar = blenderProgress(ctx.stderr);
    try {
      const r = await renderDataset({
        creature,
        count,
        seed,
        aa: values.aa,
        transparent: values.transparent,
        ...(spread !== undefined ? { pose: { spread } } : {}),
        out,
        runs: values.runs ? path.resolve(ctx.cwd, values.runs) : undefined,
        ...blenderOptions(ctx, values.timeout, bar.onProgress),
      });
      bar.end();
      const rate =
        r.samplesPerSecond === null ? '' : `, ${r.samplesPerSecond.toFixed(2)} samples/s after start-up`;
      ctx.stdout.write(`${r.dir}: ${r.rendered} rendered, ${r.skipped} already there${rate}\n`);
      return 0;
    } finally {
      bar.end();
    }
  },
};

import path from 'node:path';
import { falKeyFromEnv, generateVideo, redactKey } from '@mocap/fal';
import { creatureDir } from '@mocap/layout';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { falProgress } from './fal-progress.js';

function int(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`--${name}: Expected a whole number >= 0, got "${v}".`);
  return n;
}

function parseInputs(list: string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) {
    const i = kv.indexOf('=');
    if (i < 1) throw new UsageError(`--input: Expected key=value, got "${kv}".`);
    const v = kv.slice(i + 1);
    try {
      out[kv.slice(0, i)] = JSON.parse(v);
    } catch {
      out[kv.slice(0, i)] = v;
    }
  }
  return out;
}

/** `mocap generate`: ref.png + prompt -> an image-to-video job on fal's queue -> the clip. */
export const generateCommand: Command = {
  name: 'generate',
  summary: 'Generate a two-view clip on fal (image to video), resumable',
  usage:
    'mocap generate --creature DIR --move NAME [--model ID] [--seed N] [--ref FILE] [--lora lora.json] ' +
    '[--input key=value]... [--timeout MIN] [--poll SEC] [--dry-run]   (FAL_KEY from the environment)',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      move: { type: 'string' },
      model: { type: 'string' },
      seed: { type: 'string' },
      ref: { type: 'string' },
      lora: { type: 'string' },
      input: { type: 'string', multiple: true },
      timeout: { type: 'string' },
      poll: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    });
    const dir = creatureDir({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    if (!dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
    if (!values.move) throw new UsageError('--move NAME is required.');
    const dryRun = values['dry-run'] === true;
    let key: string | undefined;
    try {
      key = dryRun ? undefined : falKeyFromEnv(ctx.env, 'generate');
    } catch (err) {
      ctx.stderr.write(`mocap ${(err as Error).message}\n`);
      return 1;
    }
    const timeoutMin = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMin !== undefined && !(timeoutMin > 0))
      throw new UsageError(`--timeout: Expected minutes > 0, got "${values.timeout}".`);
    const pollS = values.poll === undefined ? undefined : Number(values.poll);
    if (pollS !== undefined && !(pollS > 0))
      throw new UsageError(`--poll: Expected seconds > 0, got "${values.poll}".`);
    const progress = falProgress(ctx.stderr, key);
    try {
      const r = await generateVideo(
        {
          creatureDir: dir,
          move: values.move,
          ...(values.model ? { model: values.model } : {}),
          ...(values.seed !== undefined ? { seed: int('seed', values.seed) } : {}),
          ...(values.ref ? { ref: path.resolve(ctx.cwd, values.ref) } : {}),
          ...(values.lora ? { lora: path.resolve(ctx.cwd, values.lora) } : {}),
          extraInput: parseInputs(values.input),
          ...(timeoutMin !== undefined ? { timeoutMs: Math.round(timeoutMin * 60_000) } : {}),
          ...(pollS !== undefined ? { pollIntervalMs: Math.round(pollS * 1000) } : {}),
        },
        {
          key,
          dryRun,
          signal: ctx.signal,
          transport: { baseUrl: ctx.env.MOCAP_FAL_BASE_URL || undefined, onRetry: progress.onRetry },
          onUpdate: progress.onUpdate,
        },
      );
      if (dryRun) {
        ctx.stdout.write(`${JSON.stringify(r.request, null, 2)}\n`);
        progress.say(`dry run: nothing uploaded or submitted; the clip would go to ${r.video}`);
        return 0;
      }
      if (r.outcome === 'exists') progress.say(`already generated: ${r.video}`);
      else progress.say(`wrote ${r.video} (${r.bytes} bytes, request ${r.requestId})`);
      ctx.stdout.write(`${r.video}\n`);
      return 0;
    } catch (err) {
      if (err instanceof UsageError) throw err;
      ctx.stderr.write(
        `mocap generate: ${redactKey((err as Error).message.replace(/^generate: /, ''), key)}\n`,
      );
      return 1;
    }
  },
};

import path from 'node:path';
import {
  creatureMirror,
  falKeyFromEnv,
  findCapturedMotions,
  type LoraMove,
  loraTrainerInput,
  loraTrigger,
  redactKey,
  TrainLoraOptions,
  trainLora,
} from '@mocap/fal';
import { CreatureJson, creatureDir, readJsonFile } from '@mocap/layout';
import { type Command, parseCommandArgs, UsageError } from '../command.js';
import { falProgress } from './fal-progress.js';
import { blenderClipRenderer } from './lora-renderer.js';

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name}: Expected a number > 0, got "${v}".`);
  return n;
}

function parseMoves(list: string[] | undefined, cwd: string): LoraMove[] | undefined {
  if (!list?.length) return undefined;
  return list.map((kv) => {
    const i = kv.indexOf('=');
    if (i < 1) throw new UsageError(`--motion: Expected move=path/to/motion.json, got "${kv}".`);
    return { move: kv.slice(0, i), motionFile: path.resolve(cwd, kv.slice(i + 1)) };
  });
}

/** `mocap lora`: captured motions -> mirrored training set -> a video-LoRA run on fal -> lora.json. */
export const loraCommand: Command = {
  name: 'lora',
  summary: 'Train a video LoRA on fal from captured motions (+ mirrored), resumable',
  usage:
    'mocap lora --creature DIR [--motion MOVE=motion.json]... [--trigger PHRASE] [--steps N] [--lr X] ' +
    '[--trainer ID] [--inference-model ID] [--timeout MIN] [--poll SEC] [--dry-run]   (FAL_KEY from the environment)',
  async run(ctx) {
    const { values } = parseCommandArgs(ctx.argv, {
      creature: { type: 'string' },
      motion: { type: 'string', multiple: true },
      trigger: { type: 'string' },
      steps: { type: 'string' },
      lr: { type: 'string' },
      trainer: { type: 'string' },
      'inference-model': { type: 'string' },
      timeout: { type: 'string' },
      poll: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    });
    const dir = creatureDir({ creature: values.creature, env: ctx.env, cwd: ctx.cwd });
    if (!dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
    const steps = num('steps', values.steps);
    const lr = num('lr', values.lr);
    const timeout = num('timeout', values.timeout);
    const poll = num('poll', values.poll);
    const options = TrainLoraOptions.parse({
      creatureDir: dir,
      ...(values.trainer ? { trainer: values.trainer } : {}),
      ...(values['inference-model'] ? { inferenceModel: values['inference-model'] } : {}),
      ...(values.trigger ? { trigger: values.trigger } : {}),
      ...(steps !== undefined ? { steps: Math.round(steps) } : {}),
      ...(lr !== undefined ? { learningRate: lr } : {}),
      ...(timeout !== undefined ? { timeoutMs: Math.round(timeout * 60_000) } : {}),
      ...(poll !== undefined ? { pollIntervalMs: Math.round(poll * 1000) } : {}),
    });
    const moves = parseMoves(values.motion, ctx.cwd) ?? (await findCapturedMotions(dir));
    if (values['dry-run']) {
      const trigger = loraTrigger(options);
      if (moves.length === 0)
        ctx.stderr.write(
          `mocap lora: no captured motions under ${dir}/runs/capture/<move>/motion.json (or --motion).\n`,
        );
      ctx.stdout.write(
        `${JSON.stringify(
          {
            clips: moves.flatMap((m) => [
              { name: m.move, motion: m.motionFile },
              { name: `${m.move}_mirrored`, motion: `${m.motionFile} (mirrored)` },
            ]),
            endpoint: options.trainer,
            url: `https://queue.fal.run/${options.trainer}`,
            input: loraTrainerInput(
              options,
              trigger,
              '<fal storage URL of runs/lora/set.zip, uploaded at run time>',
            ),
          },
          null,
          2,
        )}\n`,
      );
      return 0;
    }
    let key: string | undefined;
    try {
      key = falKeyFromEnv(ctx.env, 'lora');
    } catch (err) {
      ctx.stderr.write(`mocap ${(err as Error).message}\n`);
      return 1;
    }
    const progress = falProgress(ctx.stderr, key);
    try {
      const creature = await readJsonFile('lora', path.join(dir, 'creature.json'), CreatureJson);
      const mirror = creatureMirror(creature);
      const renderer = blenderClipRenderer(dir, { env: ctx.env });
      const r = await trainLora(options, {
        key,
        moves,
        renderer,
        mirror,
        signal: ctx.signal,
        transport: { baseUrl: ctx.env.MOCAP_FAL_BASE_URL || undefined, onRetry: progress.onRetry },
        onUpdate: progress.onUpdate,
        onProgress: progress.say,
      });
      progress.say(
        `wrote ${r.loraFile}: ${r.set.clips.length} clips (${r.lora.training_set.mirrored} mirrored), trigger "${r.lora.trigger_phrase}"`,
      );
      ctx.stdout.write(`${r.loraFile}\n`);
      return 0;
    } catch (err) {
      ctx.stderr.write(`mocap lora: ${redactKey((err as Error).message.replace(/^lora: /, ''), key)}\n`);
      return 1;
    }
  },
};

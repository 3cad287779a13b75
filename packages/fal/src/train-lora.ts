import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { atomicWriteJson, creaturePaths } from '@mocap/layout';
import { z } from 'zod';
import { createFal } from './create-fal.js';
import { FalError } from './fal-error.js';
import type { FalFetchOptions } from './fal-fetch.js';
import { LoraJson } from './lora-json.js';
import {
  buildLoraSet,
  type ClipRenderer,
  type LoraMove,
  type LoraSet,
  type MotionMirror,
} from './lora-set.js';
import { type JobUpdate, runQueueJob } from './queue-job.js';
import { uploadFile } from './upload-file.js';

/** The default video-LoRA trainer: Wan 2.1 image-to-video LoRA training on fal. */
export const DEFAULT_LORA_TRAINER = 'fal-ai/wan-trainer';
/** The image-to-video endpoint that takes that trainer's LoRA (`loras: [{ path, scale }]`). */
export const DEFAULT_LORA_INFERENCE_MODEL = 'fal-ai/wan-i2v-lora';

/** Options of {@link trainLora} that describe the run (defaults in the schema). */
export const TrainLoraOptions = z
  .object({
    creatureDir: z.string().min(1),
    /** The trainer endpoint. @default DEFAULT_LORA_TRAINER */
    trainer: z.string().min(1).default(DEFAULT_LORA_TRAINER),
    /** Where lora.json says to use the LoRA. @default DEFAULT_LORA_INFERENCE_MODEL */
    inferenceModel: z.string().min(1).default(DEFAULT_LORA_INFERENCE_MODEL),
    /** Caption trigger phrase. @default `<creature name>_moves` */
    trigger: z.string().min(1).optional(),
    /** Training steps. @default 400 */
    steps: z.number().int().min(100).max(20_000).default(400),
    /** @default 0.0002 */
    learningRate: z.number().positive().default(0.0002),
    /** Extra trainer input fields, merged last. @default {} */
    extraInput: z.record(z.string(), z.unknown()).default({}),
    /** @default 15000 */
    pollIntervalMs: z.number().int().positive().default(15_000),
    /** Longest wait for training in this run, ms. @default 14_400_000 (4 h) */
    timeoutMs: z.number().int().positive().default(14_400_000),
  })
  .strict();
/** Run options of {@link trainLora}, defaults filled. */
export type TrainLoraOptions = z.output<typeof TrainLoraOptions>;

/** Everything {@link trainLora} takes beyond {@link TrainLoraOptions}. */
export interface TrainLoraRuntime {
  key?: string | undefined;
  transport?: Omit<FalFetchOptions, 'signal'>;
  signal?: AbortSignal | undefined;
  renderer: ClipRenderer;
  mirror: MotionMirror;
  /** The captured motions. @default {@link findCapturedMotions} of the creature */
  moves?: LoraMove[];
  onUpdate?: ((u: JobUpdate) => void) | undefined;
  onProgress?: ((line: string) => void) | undefined;
}

/** The creature's trigger phrase: the option, else `<creature folder name>_moves`. */
export function loraTrigger(o: Pick<TrainLoraOptions, 'creatureDir' | 'trigger'>): string {
  return o.trigger ?? `${path.basename(path.resolve(o.creatureDir))}_moves`;
}

/** The trainer input {@link trainLora} submits (what `mocap lora --dry-run` prints). */
export function loraTrainerInput(
  o: TrainLoraOptions,
  trigger: string,
  zipUrl: string,
): Record<string, unknown> {
  return {
    training_data_url: zipUrl,
    number_of_steps: o.steps,
    learning_rate: o.learningRate,
    trigger_phrase: trigger,
    auto_scale_input: true,
    ...o.extraInput,
  };
}

/** What {@link trainLora} resolves to. */
export interface TrainLoraResult {
  set: LoraSet;
  loraFile: string;
  lora: LoraJson;
  resumed: boolean;
}

/**
 * The captured motions of a creature: every `<creature>/runs/capture/<move>/motion.json`
 * (the move is its folder's name), sorted by move.
 */
export async function findCapturedMotions(creatureDir: string): Promise<LoraMove[]> {
  const root = creaturePaths(creatureDir).capture;
  if (!existsSync(root)) return [];
  const out: LoraMove[] = [];
  for (const e of await readdir(root, { withFileTypes: true })) {
    const f = path.join(root, e.name, 'motion.json');
    if (e.isDirectory() && existsSync(f)) out.push({ move: e.name, motionFile: f });
  }
  return out.sort((a, b) => a.move.localeCompare(b.move));
}

function urlAt(data: unknown, keys: string[]): string | undefined {
  const d = data as Record<string, unknown> | null;
  for (const k of keys) {
    const v = d?.[k];
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string')
      return (v as { url: string }).url;
  }
  return undefined;
}

/**
 * Captured motions + prompts -> training set ({@link buildLoraSet}: clips, mirrored clips,
 * captions, zip) -> upload -> a video-LoRA trainer run on fal's queue -> `lora.json`
 * (`<creature>/runs/lora/lora.json`). Resumable like generate: the set keeps rendered clips,
 * the upload and the trainer's request id are recorded in `runs/lora/train.job.json`.
 *
 * ```ts
 * const { loraFile } = await trainLora({ creatureDir: 'creatures/wolf' }, { key, renderer, mirror });
 * ```
 */
export async function trainLora(
  options: z.input<typeof TrainLoraOptions>,
  rt: TrainLoraRuntime,
): Promise<TrainLoraResult> {
  const o = TrainLoraOptions.parse(options);
  const trigger = loraTrigger(o);
  const moves = rt.moves ?? (await findCapturedMotions(o.creatureDir));
  if (!rt.key) throw new Error('lora: no fal key given (set FAL_KEY in the environment).');
  const set = await buildLoraSet({
    creatureDir: o.creatureDir,
    moves,
    trigger,
    renderer: rt.renderer,
    mirror: rt.mirror,
    signal: rt.signal,
    onProgress: rt.onProgress,
  });
  const loraDir = creaturePaths(o.creatureDir).lora;
  const stateFile = path.join(loraDir, 'train.job.json');
  const client = createFal({ key: rt.key, ...rt.transport, signal: rt.signal });
  rt.onProgress?.(`uploading ${set.zip} (${set.clips.length} clips)`);
  const zipUrl = await uploadFile({ client, file: set.zip, stateFile, endpoint: o.trainer, op: 'lora' });
  const input = loraTrainerInput(o, trigger, zipUrl);
  const job = await runQueueJob({
    client,
    endpoint: o.trainer,
    input,
    stateFile,
    pollIntervalMs: o.pollIntervalMs,
    timeoutMs: o.timeoutMs,
    op: 'lora',
    ...(rt.signal ? { signal: rt.signal } : {}),
    ...(rt.onUpdate ? { onUpdate: rt.onUpdate } : {}),
  });
  const loraUrl = urlAt(job.data, ['lora_file', 'diffusers_lora_file', 'lora', 'weights']);
  if (!loraUrl) {
    const keys =
      job.data && typeof job.data === 'object' ? Object.keys(job.data).join(', ') : String(job.data);
    throw new FalError(
      `lora: the trainer's result has no LoRA file URL (fields: ${keys}).`,
      0,
      '',
      job.requestId,
    );
  }
  const extra: Record<string, unknown> = {};
  const configUrl = urlAt(job.data, ['config_file']);
  if (configUrl) extra.config_file = configUrl;
  const lora = LoraJson.parse({
    lora_url: loraUrl,
    trigger_phrase: trigger,
    trainer: o.trainer,
    inference_model: o.inferenceModel,
    scale: 1,
    request_id: job.requestId,
    config: input,
    extra,
    training_set: {
      clips: set.clips.length,
      mirrored: set.clips.filter((c) => c.mirrored).length,
      zip_sha256: set.zipSha256,
    },
    created_at: new Date().toISOString(),
  });
  const loraFile = path.join(loraDir, 'lora.json');
  await atomicWriteJson(loraFile, lora);
  return { set, loraFile, lora, resumed: job.resumed };
}

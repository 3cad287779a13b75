import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { creaturePaths, readJsonFile } from '@mocap/layout';
import { z } from 'zod';
import { createFal } from './create-fal.js';
import { checkMp4, downloadFile } from './download-file.js';
import { FalError } from './fal-error.js';
import { createFalFetch, type FalFetchOptions } from './fal-fetch.js';
import { readJobState } from './job-state.js';
import { LoraJson } from './lora-json.js';
import { MoveName, promptPath } from './prompt.js';
import { type JobUpdate, runQueueJob } from './queue-job.js';
import { uploadFile } from './upload-file.js';

/** The default image-to-video endpoint (Wan 2.2 A14B, image to video, 720p). */
export const DEFAULT_VIDEO_MODEL = 'fal-ai/wan/v2.2-a14b/image-to-video';

/** Options of {@link generateVideo} that describe the request (defaults in the schema). */
export const GenerateOptions = z
  .object({
    /** The creature directory (holds prompts/ and runs/). */
    creatureDir: z.string().min(1),
    move: MoveName,
    /** The image-to-video endpoint. @default DEFAULT_VIDEO_MODEL (or the LoRA's inference model) */
    model: z.string().min(1).optional(),
    /** Generation seed (also names the output folder). @default 0 */
    seed: z.number().int().min(0).default(0),
    /** The first frame. @default `<creature>/runs/ref/ref.png` */
    ref: z.string().optional(),
    /** A lora.json from `mocap lora`: its trigger phrase and weights are used. */
    lora: z.string().optional(),
    /** Output resolution asked of the model. @default '720p' */
    resolution: z.string().default('720p'),
    /** Extra endpoint-specific input fields, merged last. @default {} */
    extraInput: z.record(z.string(), z.unknown()).default({}),
    /** Status poll interval, ms. @default 5000 */
    pollIntervalMs: z.number().int().positive().default(5000),
    /** Longest wait for the job in this run, ms. @default 1_800_000 (30 min) */
    timeoutMs: z.number().int().positive().default(1_800_000),
  })
  .strict();
/** Request options of {@link generateVideo}, defaults filled. */
export type GenerateOptions = z.output<typeof GenerateOptions>;

/** Everything {@link generateVideo} takes beyond {@link GenerateOptions}. */
export interface GenerateRuntime {
  /** The fal key (required unless `dryRun`). */
  key?: string | undefined;
  /** Transport: fetch, baseUrl (local server), retry, onRetry. The signal is added here. */
  transport?: Omit<FalFetchOptions, 'signal'>;
  signal?: AbortSignal | undefined;
  onUpdate?: ((u: JobUpdate) => void) | undefined;
  /** Only build and return the request; touch nothing. */
  dryRun?: boolean;
}

/** The exact request {@link generateVideo} submits (what `--dry-run` prints). */
export interface VideoRequest {
  endpoint: string;
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  input: Record<string, unknown>;
  /** The local file uploaded to fal storage for `input.image_url`. */
  upload: { file: string; bytes: number; sha256: string; url: string | null };
}

/** What {@link generateVideo} resolves to. */
export interface GenerateResult {
  request: VideoRequest;
  /** The video file (`runs/videos/<move>/s<seed>/<model>.mp4` under the creature). */
  video: string;
  stateFile: string;
  requestId: string | null;
  /** `dry-run`, `exists` (already downloaded), `resumed` or `submitted`. */
  outcome: 'dry-run' | 'exists' | 'resumed' | 'submitted';
  bytes: number;
}

/** A model id as a file name: `fal-ai/wan/v2.2-a14b/image-to-video` -> `fal-ai_wan_v2.2-a14b_image-to-video`. */
export function modelSlug(model: string): string {
  return model.replace(/[^A-Za-z0-9._-]+/g, '_');
}

/** Where a generated clip goes: `<creature>/runs/videos/<move>/s<seed>/<model>.mp4`. */
export function videoPath(creatureDir: string, move: string, seed: number, model: string): string {
  return path.join(creaturePaths(creatureDir).videos, move, `s${seed}`, `${modelSlug(model)}.mp4`);
}

/** The video URL in an image-to-video result (`video.url`, `video` or `videos[0].url`). */
export function videoUrlOf(data: unknown, op = 'generate'): string {
  const d = data as { video?: unknown; videos?: unknown } | null;
  const v = d?.video ?? (Array.isArray(d?.videos) ? d.videos[0] : undefined);
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { url?: unknown }).url === 'string')
    return (v as { url: string }).url;
  const keys = d && typeof d === 'object' ? Object.keys(d).join(', ') : String(d);
  throw new FalError(`${op}: the result has no video URL (fields: ${keys}).`, 0);
}

/**
 * ref.png + prompt -> upload -> image-to-video job on fal's queue -> the clip, downloaded
 * atomically. The request id is on disk the moment fal accepts the job (`<video>.job.json`),
 * so a killed run resumes the same paid job. `dryRun` returns the exact request only.
 *
 * ```ts
 * const r = await generateVideo({ creatureDir: 'creatures/wolf', move: 'trot', seed: 1 }, { key });
 * ```
 */
export async function generateVideo(
  options: z.input<typeof GenerateOptions>,
  rt: GenerateRuntime = {},
): Promise<GenerateResult> {
  const o = GenerateOptions.parse(options);
  const lora = o.lora ? await readJsonFile('generate', o.lora, LoraJson) : undefined;
  const model = o.model ?? lora?.inference_model ?? DEFAULT_VIDEO_MODEL;
  const pfile = promptPath(o.creatureDir, o.move);
  let prompt: string;
  try {
    prompt = (await readFile(pfile, 'utf8')).trim();
  } catch (err) {
    throw new Error(
      `generate: ${pfile}: cannot read (${(err as NodeJS.ErrnoException).code}); write it first with \`mocap prompt --creature ${o.creatureDir} --move ${o.move} "<action sentence>"\`.`,
      { cause: err },
    );
  }
  if (!prompt) throw new Error(`generate: ${pfile}: the prompt is empty.`);
  if (lora?.trigger_phrase && !prompt.startsWith(lora.trigger_phrase))
    prompt = `${lora.trigger_phrase} ${prompt}`;
  const ref = o.ref ?? creaturePaths(o.creatureDir).refPng;
  let refBytes: Buffer;
  try {
    refBytes = await readFile(ref);
  } catch (err) {
    throw new Error(
      `generate: ${ref}: cannot read the reference frame (${(err as NodeJS.ErrnoException).code}); render it with \`mocap ref\` or pass --ref FILE.`,
      { cause: err },
    );
  }
  const sha256 = createHash('sha256').update(refBytes).digest('hex');
  const video = videoPath(o.creatureDir, o.move, o.seed, model);
  const stateFile = video.replace(/\.mp4$/, '.job.json');
  const prior = await readJobState('generate', stateFile);
  const knownUrl = prior?.uploads[sha256] ?? null;
  const buildInput = (imageUrl: string): Record<string, unknown> => ({
    prompt,
    image_url: imageUrl,
    seed: o.seed,
    resolution: o.resolution,
    aspect_ratio: '16:9',
    ...(lora ? { loras: [{ path: lora.lora_url, scale: lora.scale }] } : {}),
    ...o.extraInput,
  });
  const request: VideoRequest = {
    endpoint: model,
    method: 'POST',
    url: `https://queue.fal.run/${model}`,
    headers: {
      Authorization: 'Key $FAL_KEY',
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'x-fal-queue-priority': 'normal',
    },
    input: buildInput(knownUrl ?? `<fal storage URL of ${ref}, uploaded at run time>`),
    upload: { file: ref, bytes: refBytes.length, sha256, url: knownUrl },
  };
  const base = { request, video, stateFile, bytes: 0 };
  if (rt.dryRun) return { ...base, requestId: prior?.request_id ?? null, outcome: 'dry-run' };
  if (existsSync(video)) {
    const have = await readFile(video);
    if (!checkMp4(have))
      return { ...base, requestId: prior?.request_id ?? null, outcome: 'exists', bytes: have.length };
  }
  if (!rt.key) throw new Error('generate: no fal key given (set FAL_KEY in the environment).');
  const fetchOpts: FalFetchOptions = { ...rt.transport, signal: rt.signal };
  const client = createFal({ key: rt.key, ...fetchOpts });
  const imageUrl = await uploadFile({ client, file: ref, stateFile, endpoint: model, op: 'generate' });
  request.input = buildInput(imageUrl);
  request.upload.url = imageUrl;
  const job = await runQueueJob({
    client,
    endpoint: model,
    input: request.input,
    stateFile,
    pollIntervalMs: o.pollIntervalMs,
    timeoutMs: o.timeoutMs,
    op: 'generate',
    ...(rt.signal ? { signal: rt.signal } : {}),
    ...(rt.onUpdate ? { onUpdate: rt.onUpdate } : {}),
  });
  const url = videoUrlOf(job.data);
  const bytes = await downloadFile({
    fetch: createFalFetch(fetchOpts),
    url,
    dest: video,
    signal: rt.signal,
    check: checkMp4,
  });
  return { ...base, requestId: job.requestId, outcome: job.resumed ? 'resumed' : 'submitted', bytes };
}

import { z } from 'zod';

/**
 * `lora.json`: a trained video LoRA, as `mocap lora` writes it and `mocap generate --lora`
 * reads it.
 */
export const LoraJson = z
  .object({
    /** URL of the LoRA weights (.safetensors) on fal storage. */
    lora_url: z.string().url(),
    /** The phrase captions start with; generate puts it first in the prompt. */
    trigger_phrase: z.string(),
    /** The trainer endpoint that made it. */
    trainer: z.string().min(1),
    /** The image-to-video endpoint that accepts it (`loras: [{ path, scale }]`). */
    inference_model: z.string().min(1),
    /** LoRA strength for generation. @default 1 */
    scale: z.number().positive().default(1),
    /** fal's queue request id of the training run. */
    request_id: z.string(),
    /** The trainer input (training_data_url, steps, learning rate...). */
    config: z.record(z.string(), z.unknown()),
    /** Other files the trainer returned (e.g. its config file URL). */
    extra: z.record(z.string(), z.unknown()).default({}),
    /** The training set: clip count, mirrored count, zip SHA-256. */
    training_set: z
      .object({
        clips: z.number().int().min(0),
        mirrored: z.number().int().min(0),
        zip_sha256: z.string(),
      })
      .strict(),
    created_at: z.string(),
  })
  .strict();
/** A validated lora.json. */
export type LoraJson = z.output<typeof LoraJson>;

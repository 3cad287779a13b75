import { Name } from '@mocap/layout';
import { z } from 'zod';

/**
 * The small from-scratch CNN backbone: stride-2 stages of two 3x3 convolutions each. With `skips`
 * the head becomes a small U-Net: each upsampling stage concatenates the backbone stage of its
 * resolution (what localises well; e.g. `widths: [16, 32, 48, 64, 96]`, `head.upsample: 3`).
 */
export const CnnBackbone = z
  .object({
    kind: z.literal('cnn'),
    /** Channels per stage; each stage halves the resolution. @default [16, 32, 48, 64] */
    widths: z.array(z.number().int().positive()).min(1).max(6).default([16, 32, 48, 64]),
    /** Skip connections from the backbone's stages into the head's upsampling stages. @default false */
    skips: z.boolean().default(false),
  })
  .strict();

/**
 * DINOv2 ViT-B/14 with registers in the Hugging Face layout (`Dinov2WithRegistersModel`), weights
 * from a local safetensors file; the defaults are ViT-B/14's.
 */
export const Dinov2Backbone = z
  .object({
    kind: z.literal('dinov2'),
    /** Path of the safetensors file; without it the weights start random (tests, training from scratch). */
    weights: z.string().optional(),
    /** @default 14 */
    patch: z.number().int().positive().default(14),
    /** @default 768 */
    hidden: z.number().int().positive().default(768),
    /** @default 12 */
    layers: z.number().int().positive().default(12),
    /** @default 12 */
    heads: z.number().int().positive().default(12),
    /** MLP width over hidden. @default 4 */
    mlpRatio: z.number().int().positive().default(4),
    /** Register tokens (no position embedding). @default 4 */
    registers: z.number().int().min(0).default(4),
    /** Side of the pretrained position-embedding grid (518 / 14). @default 37 */
    pretrainedGrid: z.number().int().positive().default(37),
    /** @default 1e-6 */
    layerNormEps: z.number().positive().default(1e-6),
  })
  .strict()
  .refine((b) => b.hidden % b.heads === 0, {
    message: 'hidden must be a multiple of heads',
    path: ['heads'],
  });

/**
 * Options of {@link createReader}: the joints, the input size, the backbone and the shared head.
 *
 * ```ts
 * const config = ReaderConfig.parse({ joints: ['nose', 'tail'] }); // small CNN, 256 px -> 64 px
 * ```
 */
export const ReaderConfig = z
  .object({
    /** Joint names, one heatmap each, in det.npz order. */
    joints: z.array(Name).min(1),
    /** Square input size in px. @default 256 */
    inputSize: z.number().int().positive().default(256),
    /** @default { kind: 'cnn' } */
    backbone: z
      .discriminatedUnion('kind', [CnnBackbone, Dinov2Backbone])
      .default({ kind: 'cnn', widths: [16, 32, 48, 64], skips: false }),
    /** The conv head: `upsample` 2x stages of a 3x3 convolution each, then a 1x1 to the joints. */
    head: z
      .object({
        /** @default 48 */
        channels: z.number().int().positive().default(48),
        /** @default 2 */
        upsample: z.number().int().min(0).max(4).default(2),
      })
      .strict()
      .default({ channels: 48, upsample: 2 }),
    /** Seed of the initial weights. @default 0 */
    seed: z.number().int().default(0),
  })
  .strict()
  .superRefine((c, ctx) => {
    const stride = c.backbone.kind === 'cnn' ? 2 ** c.backbone.widths.length : c.backbone.patch;
    if (c.inputSize % stride !== 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['inputSize'],
        message: `inputSize ${c.inputSize} is not a multiple of the backbone stride ${stride}`,
      });
    }
    if (new Set(c.joints).size !== c.joints.length) {
      ctx.addIssue({ code: 'custom', path: ['joints'], message: 'joint names repeat' });
    }
  });
/** A resolved reader config. */
export type ReaderConfig = z.output<typeof ReaderConfig>;
/** A reader config as a caller writes it. */
export type ReaderConfigInput = z.input<typeof ReaderConfig>;

/** Side of the backbone's feature grid for a config. */
export function featureGrid(config: ReaderConfig): number {
  const b = config.backbone;
  return b.kind === 'cnn' ? config.inputSize / 2 ** b.widths.length : config.inputSize / b.patch;
}

/** Side of the heatmaps a config produces. */
export function heatmapSize(config: ReaderConfig): number {
  return featureGrid(config) * 2 ** config.head.upsample;
}

import { existsSync } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT, Layout, type LayoutInput, withOutputLock } from '@mocap/layout';
import * as tf from '@tensorflow/tfjs-core';
import { z } from 'zod';
import { AdamW } from './adam.js';
import { AugmentOptions, augment } from './augment.js';
import { initBackend } from './backend.js';
import { createReader, type Reader } from './create-reader.js';
import { type DatasetItem, loadDataset } from './dataset.js';
import { evaluateReader } from './evaluate-reader.js';
import { gaussianHeatmaps } from './gaussian-heatmaps.js';
import { heatmapLoss } from './heatmap-loss.js';
import { type InitReport, initFromReader, readerArchitecture } from './init-from-reader.js';
import { parseOptions } from './parse-options.js';
import { heatmapSize, ReaderConfig, type ReaderConfigInput } from './reader-config.js';
import type { ReaderErrors } from './reader-errors.js';
import { loadReader, saveReader } from './reader-io.js';
import { layoutToInput } from './view-transform.js';

/** Options of {@link trainReader}. */
export const TrainOptions = z
  .object({
    /** Dataset folder of `<i>_meta.json` + view PNGs. */
    dataset: z.string().min(1),
    /** Output folder: model.json + weights.bin, and checkpoint/ while training. */
    out: z.string().min(1),
    /** The frame layout of the renders. @default DEFAULT_LAYOUT */
    layout: z.custom<LayoutInput>().optional(),
    /** The reader's config without its joints (taken from the dataset). @default {} (small CNN, 256 px) */
    model: z.custom<Omit<ReaderConfigInput, 'joints'>>().default({}),
    /** Total optimizer steps (a resumed run continues to this count). @default 2000 */
    steps: z.number().int().positive().default(2000),
    /** @default 8 */
    batchSize: z.number().int().positive().default(8),
    /** Peak learning rate of the head (and the CNN backbone). @default 1e-3 */
    lr: z.number().positive().default(1e-3),
    /** Peak learning rate of a DINOv2 backbone. @default 2e-5 */
    backboneLr: z.number().positive().default(2e-5),
    /** AdamW weight decay. @default 1e-4 */
    weightDecay: z.number().min(0).default(1e-4),
    /** Fraction of steps of linear warm-up before the cosine decay. @default 0.05 */
    warmup: z.number().min(0).max(1).default(0.05),
    /** Fraction of samples held out. @default 0.04 */
    heldOut: z.number().min(0).max(0.5).default(0.04),
    /** Gaussian target sigma, heatmap px. @default 2 */
    sigma: z.number().positive().default(2),
    /**
     * Extra weight of the squared error where the target is high (see {@link heatmapLoss}): each
     * pixel counts `1 + peakWeight * target`; 0 is the plain mean squared error. @default 0
     */
    peakWeight: z.number().min(0).default(0),
    /** Seed of the split, the batches and the augmentation. @default 0 */
    seed: z.number().int().default(0),
    /** @default {} (all augmentations at their default strength) */
    augment: AugmentOptions.default(AugmentOptions.parse({})),
    /** Steps between checkpoints. @default 100 */
    checkpointEvery: z.number().int().positive().default(100),
    /** Continue from `out/checkpoint` when it exists. @default true */
    resume: z.boolean().default(true),
    /**
     * A trained reader's folder to start from (fine-tuning, see {@link initFromReader}); its
     * architecture is used when `model` is empty. A resumed run continues its checkpoint instead.
     */
    init: z.string().min(1).optional(),
    /**
     * With `init`: for this reader's joints the source has no same-named joint for, the source
     * joint to start from (joint -> source joint, e.g. {@link restJointMap} of the two rigs).
     */
    initMap: z.record(z.string(), z.string()).optional(),
  })
  .strict();
/** Options of {@link trainReader} as a caller writes them. */
export type TrainOptions = z.input<typeof TrainOptions>;

/** What {@link trainReader} reports while it runs. */
export type TrainEvent =
  | { phase: 'load'; done: number; total: number }
  | { phase: 'resume'; step: number }
  | { phase: 'init'; report: InitReport }
  | { phase: 'train'; step: number; steps: number; loss: number; lr: number; ms: number }
  | { phase: 'checkpoint'; step: number }
  | { phase: 'eval'; heldOut: ReaderErrors };

/** The result of {@link trainReader}. */
export interface TrainResult {
  /** Folder of the saved reader (model.json + weights.bin). */
  out: string;
  /** Backend the run used. */
  backend: string;
  /** Step this run started from (0, or the checkpoint's). */
  startStep: number;
  /** Loss of each step this run took. */
  losses: number[];
  /** Milliseconds of each step this run took. */
  stepMs: number[];
  /** Held-out error in layout px (absent when nothing was held out). */
  heldOut?: ReaderErrors;
  trainSamples: number;
  heldOutSamples: number;
}

function learningRate(o: z.output<typeof TrainOptions>, peak: number, step: number): number {
  const warm = Math.max(1, Math.round(o.warmup * o.steps));
  if (step < warm) return (peak * (step + 1)) / warm;
  const t = (step - warm) / Math.max(1, o.steps - warm);
  return peak * (0.05 + 0.95 * 0.5 * (1 + Math.cos(Math.PI * Math.min(1, t))));
}

function batchTensors(
  items: readonly DatasetItem[],
  reader: Reader,
  o: z.output<typeof TrainOptions>,
  layout: Layout,
  step: number,
): { x: tf.Tensor4D; y: tf.Tensor4D } {
  const n = reader.config.inputSize;
  const m = reader.heatmapSize;
  const j = reader.config.joints.length;
  const rng = seededRandom((o.seed * 1_000_003 + step * 7919 + 17) >>> 0);
  const xs = new Float32Array(o.batchSize * n * n * 3);
  const ys = new Float32Array(o.batchSize * m * m * j);
  for (let b = 0; b < o.batchSize; b++) {
    const item = items[rng.int(items.length)]!;
    const xy = new Float32Array(j * 2);
    for (let k = 0; k < j; k++) {
      const [x, y] = layoutToInput(item.transform, item.uv[2 * k]!, item.uv[2 * k + 1]!);
      xy[2 * k] = x;
      xy[2 * k + 1] = y;
    }
    const a = augment(item.pixels, item.background, xy, n, rng, o.augment, layout.colours.wall);
    xs.set(a.pixels, b * n * n * 3);
    const hxy = a.xy.map((v) => (v * m) / n);
    gaussianHeatmaps(hxy, m, o.sigma, ys, b * m * m * j);
  }
  return { x: tf.tensor4d(xs, [o.batchSize, n, n, 3]), y: tf.tensor4d(ys, [o.batchSize, m, m, j]) };
}

/**
 * Trains a heatmap reader on a dataset folder: seeded split (4% of samples held out by default),
 * Gaussian targets, augmentation for generated video, AdamW with warm-up + cosine decay,
 * checkpoints every `checkpointEvery` steps (resumed when present), and finally the reader saved
 * to `out` with its joint names and held-out error in layout px. `out` is locked meanwhile
 * (lockOutput): a second training into it is refused, naming the first run.
 *
 * ```ts
 * const result = await trainReader({ dataset: 'runs/wolf/dataset', out: 'runs/wolf/reader', steps: 3000 },
 *   (e) => e.phase === 'train' && console.log(e.step, e.loss));
 * ```
 */
export async function trainReader(
  options: TrainOptions,
  onEvent: (e: TrainEvent) => void = () => {},
  signal?: AbortSignal,
): Promise<TrainResult> {
  const o = parseOptions('trainReader', TrainOptions, options);
  return withOutputLock(o.out, { operation: 'train', signal }, () => trainInto(o, onEvent, signal));
}

async function trainInto(
  o: z.output<typeof TrainOptions>,
  onEvent: (e: TrainEvent) => void,
  signal: AbortSignal | undefined,
): Promise<TrainResult> {
  const layout = o.layout ? Layout.parse(o.layout) : DEFAULT_LAYOUT;
  const backend = await initBackend();
  const model = o.init && Object.keys(o.model).length === 0 ? await readerArchitecture(o.init) : o.model;
  const probe = parseOptions('trainReader', ReaderConfig, { ...model, joints: ['probe'] }, 'options.model');
  const ds = await loadDataset(o.dataset, {
    layout,
    inputSize: probe.inputSize,
    heatmapSize: heatmapSize(probe),
    onProgress: (done, total) => onEvent({ phase: 'load', done, total }),
  });
  const config = parseOptions('trainReader', ReaderConfig, { ...model, joints: ds.names }, 'options.model');
  const samples = [...new Set(ds.items.map((i) => i.sample))];
  const order = seededRandom(o.seed).permutation(samples.length);
  const nHeld =
    samples.length >= 2 && o.heldOut > 0 ? Math.max(1, Math.round(o.heldOut * samples.length)) : 0;
  const held = new Set(order.slice(0, nHeld).map((k) => samples[k]!));
  const trainItems = ds.items.filter((i) => !held.has(i.sample));
  const heldItems = ds.items.filter((i) => held.has(i.sample));

  const ckptDir = path.join(o.out, 'checkpoint');
  let reader: Reader;
  const opt = new AdamW(0.9, 0.999, 1e-8, o.weightDecay);
  let startStep = 0;
  if (o.resume && existsSync(path.join(ckptDir, 'model.json'))) {
    const loaded = await loadReader(ckptDir, { joints: ds.names });
    reader = loaded.reader;
    const want = JSON.stringify({ ...config, seed: 0 });
    if (JSON.stringify({ ...loaded.model.config, seed: 0 }) !== want) {
      reader.dispose();
      tf.dispose(Object.values(loaded.extra));
      throw new Error(
        `trainReader: ${ckptDir}/model.json: config differs from this run's; remove the checkpoint or match it.`,
      );
    }
    startStep = Number(loaded.model.training?.step ?? 0);
    opt.restore(loaded.extra, startStep);
    onEvent({ phase: 'resume', step: startStep });
  } else {
    reader = await createReader(config);
    if (o.init) {
      try {
        onEvent({
          phase: 'init',
          report: await initFromReader(reader, o.init, o.initMap ? { map: o.initMap } : {}),
        });
      } catch (err) {
        reader.dispose();
        throw err;
      }
    }
  }
  const isBackbone = (name: string) => name.startsWith('backbone.');
  const peak = (name: string) =>
    config.backbone.kind === 'dinov2' && isBackbone(name) ? o.backboneLr : o.lr;
  const checkpoint = async (step: number) => {
    await saveReader(reader, ckptDir, { training: { step }, extraTensors: opt.state() });
    onEvent({ phase: 'checkpoint', step });
  };
  const losses: number[] = [];
  const stepMs: number[] = [];
  const vars = [...reader.params.vars.values()];
  try {
    for (let step = startStep; step < o.steps; step++) {
      if (signal?.aborted) {
        await checkpoint(step);
        throw new Error(`trainReader: aborted at step ${step}; checkpoint saved in ${ckptDir}.`, {
          cause: signal.reason,
        });
      }
      const t0 = performance.now();
      const { x, y } = batchTensors(trainItems, reader, o, layout, step);
      const { value, grads } = tf.variableGrads(() => heatmapLoss(reader.predict(x), y, o.peakWeight), vars);
      opt.step(reader.params.vars, grads, (name) => learningRate(o, peak(name), step));
      const loss = (await value.data())[0]!;
      tf.dispose([x, y, value, ...Object.values(grads)]);
      const ms = performance.now() - t0;
      losses.push(loss);
      stepMs.push(ms);
      onEvent({ phase: 'train', step: step + 1, steps: o.steps, loss, lr: learningRate(o, o.lr, step), ms });
      if (!Number.isFinite(loss))
        throw new Error(`trainReader: the loss became ${loss} at step ${step + 1}; lower lr.`);
      if ((step + 1) % o.checkpointEvery === 0 && step + 1 < o.steps) await checkpoint(step + 1);
    }
    await checkpoint(o.steps);
    const heldOut = heldItems.length > 0 ? evaluateReader(reader, heldItems) : undefined;
    if (heldOut) onEvent({ phase: 'eval', heldOut });
    const sorted = [...stepMs].sort((a, b) => a - b);
    await saveReader(reader, o.out, {
      ...(heldOut ? { heldOut } : {}),
      training: {
        step: o.steps,
        dataset: o.dataset,
        backend: backend.choice,
        batchSize: o.batchSize,
        lr: o.lr,
        seed: o.seed,
        sigma: o.sigma,
        ...(o.peakWeight > 0 ? { peakWeight: o.peakWeight } : {}),
        ...(o.init ? { init: o.init } : {}),
        ...(o.init && o.initMap ? { initMap: o.initMap } : {}),
        augment: o.augment,
        trainSamples: samples.length - nHeld,
        heldOutSamples: nHeld,
        finalLoss: losses.slice(-20).reduce((a, b) => a + b, 0) / Math.max(1, Math.min(20, losses.length)),
        medianStepMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
      },
    });
    return {
      out: o.out,
      backend: backend.choice,
      startStep,
      losses,
      stepMs,
      ...(heldOut ? { heldOut } : {}),
      trainSamples: samples.length - nHeld,
      heldOutSamples: nHeld,
    };
  } finally {
    opt.dispose();
    reader.dispose();
  }
}

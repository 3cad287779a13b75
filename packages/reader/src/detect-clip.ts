import { type Detections, Layout, type LayoutInput, writeDetections } from '@mocap/layout';
import { decodeVideo, probeVideo, type RgbImage, readPng } from '@mocap/media';
import * as tf from '@tensorflow/tfjs-core';
import { z } from 'zod';
import { initBackend } from './backend.js';
import { type Calibration, estimateCalib } from './estimate-calib.js';
import { frameToInput } from './frame-to-inputs.js';
import { decodeHeatmaps, peaksToLayout } from './heatmap-decode.js';
import { parseOptions } from './parse-options.js';
import { loadReader } from './reader-io.js';
import { viewTransform } from './view-transform.js';

/** Options of {@link detectClip}. */
export const DetectOptions = z
  .object({
    /** The two-view clip. */
    clip: z.string().min(1),
    /** Folder of a saved reader (model.json + weights.bin). */
    reader: z.string().min(1),
    /** The reference frame the clip was generated from (layout size); needed for `calib: 'auto'`. */
    ref: z.string().optional(),
    /** Where to write det.npz; nothing is written when left out. */
    out: z.string().optional(),
    /** The frame layout. @default DEFAULT_LAYOUT */
    layout: z.custom<LayoutInput>().optional(),
    /** The creature's joint names; a reader trained for others is an error. */
    joints: z.array(z.string()).optional(),
    /**
     * `auto` (fit the first frame to ref.png), `identity` (the clip is the layout, at most resized), or
     * [sx, sy, tx, ty] (layout u = sx * clip u + tx). @default 'auto'
     */
    calib: z
      .union([
        z.literal('auto'),
        z.literal('identity'),
        z.tuple([z.number(), z.number(), z.number(), z.number()]),
      ])
      .default('auto'),
    /** Frames per inference batch (two views each). @default 4 */
    batchFrames: z.number().int().positive().default(4),
    /** Stop after this many frames. */
    maxFrames: z.number().int().positive().optional(),
  })
  .strict();
/** Options of {@link detectClip} as a caller writes them. */
export type DetectOptions = z.input<typeof DetectOptions>;

/** What {@link detectClip} reports while it runs. */
export type DetectEvent =
  | { phase: 'calib'; calibration: Calibration | null }
  | { phase: 'frames'; done: number; total: number };

/** Detections plus how the clip was calibrated and which backend ran. */
export interface DetectResult {
  detections: Detections;
  calibration: Calibration | null;
  backend: string;
  /** Wall-clock seconds of the decode + read loop. */
  seconds: number;
}

const OP = 'detect';

/**
 * Reads a two-view clip to joints with a trained heatmap reader: the clip is calibrated against
 * ref.png (scale and shift per axis, so a generated clip of another size or framing maps to layout
 * px), every frame's two views are sampled to the reader's input, and the heatmap peaks become
 * det.npz's `front_uv`, `side_uv` (layout px), `front_conf`, `side_conf`, with `fps`, `names` and
 * `calib`.
 *
 * ```ts
 * const { detections } = await detectClip({ clip: 'clip.mp4', reader: 'runs/reader', ref: 'runs/ref/ref.png', out: 'runs/det.npz' });
 * ```
 */
export async function detectClip(
  options: DetectOptions,
  onEvent: (e: DetectEvent) => void = () => {},
  signal?: AbortSignal,
): Promise<DetectResult> {
  const o = parseOptions(OP, DetectOptions, options);
  const layout = Layout.parse(o.layout ?? {});
  let ref: RgbImage | undefined;
  if (o.calib === 'auto') {
    if (!o.ref) throw new TypeError(`${OP}: Expected options.ref (ref.png) for calib 'auto', got none.`);
    ref = await readPng(o.ref);
    if (ref.width !== layout.WIDTH || ref.height !== layout.HEIGHT) {
      throw new Error(
        `${OP}: ${o.ref}: ref.png is ${ref.width} x ${ref.height}, the layout is ${layout.WIDTH} x ${layout.HEIGHT}.`,
      );
    }
  }
  const info = await probeVideo(o.clip, signal ? { signal } : {});
  const aspect = info.width / info.height;
  const want = layout.WIDTH / layout.HEIGHT;
  if (Math.abs(aspect / want - 1) > 0.02) {
    throw new Error(
      `${OP}: ${o.clip}: the clip is ${info.width} x ${info.height} (aspect ${aspect.toFixed(3)}); a two-view clip keeps the layout's ${layout.WIDTH} x ${layout.HEIGHT} (${want.toFixed(3)}).`,
    );
  }
  const backend = await initBackend();
  const { reader } = await loadReader(o.reader, o.joints ? { joints: o.joints } : {});
  const t0 = performance.now();
  try {
    const n = reader.config.inputSize;
    const m = reader.heatmapSize;
    const j = reader.config.joints.length;
    const views = [viewTransform(layout, 'front', n, m), viewTransform(layout, 'side', n, m)] as const;
    const total = o.maxFrames ? Math.min(o.maxFrames, info.frames) : info.frames;
    const front: number[] = [];
    const side: number[] = [];
    const frontConf: number[] = [];
    const sideConf: number[] = [];
    let calibration: Calibration | null = null;
    let calib: Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'> | undefined;
    const per = n * n * 3;
    const batch = new Float32Array(o.batchFrames * 2 * per);
    let inBatch = 0;
    let done = 0;
    const flush = () => {
      if (inBatch === 0) return;
      const x = tf.tensor4d(batch.subarray(0, inBatch * 2 * per), [inBatch * 2, n, n, 3]);
      const heat = reader.predict(x);
      const data = heat.dataSync() as Float32Array;
      tf.dispose([x, heat]);
      for (let f = 0; f < inBatch; f++) {
        for (const [k, t] of views.entries()) {
          const peaks = decodeHeatmaps(data, m, j, (2 * f + k) * m * m * j);
          const uv = peaksToLayout(peaks, t);
          (k === 0 ? front : side).push(...uv);
          (k === 0 ? frontConf : sideConf).push(...peaks.conf);
        }
      }
      done += inBatch;
      inBatch = 0;
      onEvent({ phase: 'frames', done, total });
    };
    for await (const frame of decodeVideo(o.clip, {
      info,
      ...(o.maxFrames ? { maxFrames: o.maxFrames } : {}),
      ...(signal ? { signal } : {}),
    })) {
      if (!calib) {
        if (o.calib === 'auto') {
          calibration = estimateCalib(frame, ref!);
          calib = calibration;
        } else if (o.calib === 'identity') {
          // The clip is the layout, at most resized.
          calib = { sx: layout.WIDTH / frame.width, sy: layout.HEIGHT / frame.height, tx: 0, ty: 0 };
        } else calib = { sx: o.calib[0], sy: o.calib[1], tx: o.calib[2], ty: o.calib[3] };
        onEvent({ phase: 'calib', calibration });
      }
      for (const [k, t] of views.entries())
        frameToInput(frame, calib, t, layout, batch, (2 * inBatch + k) * per);
      inBatch++;
      if (inBatch === o.batchFrames) flush();
    }
    flush();
    if (done === 0) throw new Error(`${OP}: ${o.clip}: no frames decoded.`);
    const detections: Detections = {
      names: [...reader.config.joints],
      fps: info.fps,
      frames: done,
      frontUv: Float32Array.from(front),
      sideUv: Float32Array.from(side),
      frontConf: Float32Array.from(frontConf),
      sideConf: Float32Array.from(sideConf),
      calib: Float64Array.of(calib!.sx, calib!.sy, calib!.tx, calib!.ty),
    };
    if (o.out) await writeDetections(o.out, detections);
    return { detections, calibration, backend: backend.choice, seconds: (performance.now() - t0) / 1000 };
  } finally {
    reader.dispose();
  }
}

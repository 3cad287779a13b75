import { Layout, type LayoutInput } from '@mocap/layout';
import { decodeVideo, type RgbImage, readPng } from '@mocap/media';
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from './backend.js';
import { type Calibration, estimateCalib } from './estimate-calib.js';
import { frameToInput } from './frame-to-inputs.js';
import { decodeHeatmaps, peaksToLayout } from './heatmap-decode.js';
import { loadReader } from './reader-io.js';
import { viewTransform } from './view-transform.js';

/** What {@link readPeaks} reads: a clip, a saved reader and how the clip maps onto the layout. */
export interface ReadPeaksOptions {
  clip: string;
  /** Folder of a saved reader. */
  reader: string;
  joints?: string[] | undefined;
  layout?: LayoutInput | undefined;
  /** As `detectClip`'s `calib`; `auto` needs `ref`. */
  calib: 'auto' | 'identity' | [number, number, number, number];
  ref?: string | undefined;
  /** Frames per inference batch (two views each). */
  batchFrames: number;
  maxFrames?: number | undefined;
  /** As `detectClip`'s `peakConf`: the confidence is the peak's value or its margin. @default 'margin' */
  peakConf?: 'peak' | 'margin' | undefined;
}

/** How the clip maps onto the layout: the fitted calibration (`auto`) and its scale and shift. */
export interface PeaksCalib {
  calibration: Calibration | null;
  calib: Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'>;
}

/** One batch of stage 1's heatmap peaks: frames `start ..`, K x 2 layout px and K confidences per frame and view. */
export interface PeaksBatch {
  start: number;
  frames: number;
  frontUv: Float32Array;
  sideUv: Float32Array;
  frontConf: Float32Array;
  sideConf: Float32Array;
}

/**
 * Stage 1 of detect on its own: decodes the clip, calibrates it on the first frame, runs the
 * heatmap reader on both views of every frame in batches and reports each batch's peaks in layout
 * px as soon as they are known (what {@link startPeakWorker} runs in a worker thread, so the
 * refinement of one batch overlaps the inference of the next). Returns the backend and frames read.
 *
 * ```ts
 * await readPeaks({ clip, reader, calib: 'identity', batchFrames: 4 }, (c) => {}, (b) => console.log(b.start));
 * ```
 */
export async function readPeaks(
  o: ReadPeaksOptions,
  onCalib: (c: PeaksCalib) => void,
  onBatch: (b: PeaksBatch) => void,
): Promise<{ backend: string; frames: number }> {
  const layout = Layout.parse(o.layout ?? {});
  const ref: RgbImage | undefined = o.calib === 'auto' && o.ref ? await readPng(o.ref) : undefined;
  const backend = await initBackend();
  const { reader } = await loadReader(o.reader, o.joints ? { joints: o.joints } : {});
  try {
    const n = reader.config.inputSize;
    const m = reader.heatmapSize;
    const j = reader.config.joints.length;
    const views = [viewTransform(layout, 'front', n, m), viewTransform(layout, 'side', n, m)] as const;
    const per = n * n * 3;
    const batch = new Float32Array(o.batchFrames * 2 * per);
    let calib: PeaksCalib['calib'] | undefined;
    let inBatch = 0;
    let done = 0;
    const flush = () => {
      if (inBatch === 0) return;
      const x = tf.tensor4d(batch.subarray(0, inBatch * 2 * per), [inBatch * 2, n, n, 3]);
      const heat = reader.predict(x);
      const data = heat.dataSync() as Float32Array;
      tf.dispose([x, heat]);
      const out: PeaksBatch = {
        start: done,
        frames: inBatch,
        frontUv: new Float32Array(inBatch * 2 * j),
        sideUv: new Float32Array(inBatch * 2 * j),
        frontConf: new Float32Array(inBatch * j),
        sideConf: new Float32Array(inBatch * j),
      };
      for (let f = 0; f < inBatch; f++) {
        for (const [k, t] of views.entries()) {
          const peaks = decodeHeatmaps(data, m, j, (2 * f + k) * m * m * j);
          (k === 0 ? out.frontUv : out.sideUv).set(peaksToLayout(peaks, t), f * 2 * j);
          (k === 0 ? out.frontConf : out.sideConf).set(
            o.peakConf === 'peak' ? peaks.conf : peaks.margin,
            f * j,
          );
        }
      }
      done += inBatch;
      inBatch = 0;
      onBatch(out);
    };
    for await (const frame of decodeVideo(o.clip, o.maxFrames ? { maxFrames: o.maxFrames } : {})) {
      if (!calib) {
        let calibration: Calibration | null = null;
        if (o.calib === 'auto') {
          if (!ref) throw new TypeError(`detect: Expected options.ref (ref.png) for calib 'auto', got none.`);
          calibration = estimateCalib(frame, ref);
          calib = calibration;
        } else if (o.calib === 'identity') {
          calib = { sx: layout.WIDTH / frame.width, sy: layout.HEIGHT / frame.height, tx: 0, ty: 0 };
        } else calib = { sx: o.calib[0], sy: o.calib[1], tx: o.calib[2], ty: o.calib[3] };
        onCalib({ calibration, calib });
      }
      for (const [k, t] of views.entries())
        frameToInput(frame, calib, t, layout, batch, (2 * inBatch + k) * per);
      inBatch++;
      if (inBatch === o.batchFrames) flush();
    }
    flush();
    return { backend: backend.choice, frames: done };
  } finally {
    reader.dispose();
  }
}

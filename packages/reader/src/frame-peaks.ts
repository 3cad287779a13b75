import type { Layout } from '@mocap/layout';
import { type RgbImage, warpScaleShift } from '@mocap/media';
import * as tf from '@tensorflow/tfjs-core';
import type { ClipCalib } from './calib-at.js';
import type { Reader } from './create-reader.js';
import { frameToInput } from './frame-to-inputs.js';
import { decodeHeatmaps, peaksToLayout } from './heatmap-decode.js';
import { viewTransform } from './view-transform.js';

/** Heatmap peaks as they accumulate, det.npz's layout: T x K x 2 layout px, T x K confidences per view. */
export interface PeakLists {
  frontUv: number[];
  sideUv: number[];
  frontConf: number[];
  sideConf: number[];
}

/** Options of {@link framePeaks}. */
export interface FramePeaksOptions {
  /** Frames per inference batch (two views each). */
  batchFrames: number;
  /** A peak's confidence: its heatmap value or its margin ({@link decodeHeatmaps}). */
  peakConf: 'peak' | 'margin';
  /** Yield each frame in layout px (for stage 2); else nothing is yielded. */
  keepFrames: boolean;
  /** After each batch: the frames whose peaks are in `peaks`. */
  onBatch?: (done: number) => void;
}

/**
 * Stage 1 of detect over a stream of clip frames: each frame's two views are sampled straight
 * into the reader's input through its calibration (`calibOf(t)`, frame t's, as the framing may drift),
 * the reader runs per batch, and the peaks (layout px) are appended to `peaks`. Yields each frame
 * in layout px once its peaks are there (with `keepFrames`), for the refinement.
 *
 * ```ts
 * const peaks = { frontUv: [], sideUv: [], frontConf: [], sideConf: [] };
 * for await (const f of framePeaks(decodeVideo(clip), reader, layout, (t) => calibAt(track, t), peaks, o)) {}
 * ```
 */
export async function* framePeaks(
  frames: AsyncIterable<RgbImage>,
  reader: Reader,
  layout: Layout,
  calibOf: (t: number) => ClipCalib,
  peaks: PeakLists,
  o: FramePeaksOptions,
): AsyncGenerator<RgbImage> {
  const n = reader.config.inputSize;
  const m = reader.heatmapSize;
  const j = reader.config.joints.length;
  const views = [viewTransform(layout, 'front', n, m), viewTransform(layout, 'side', n, m)] as const;
  const per = n * n * 3;
  const batch = new Float32Array(o.batchFrames * 2 * per);
  let inBatch = 0;
  let done = 0;
  const pending: RgbImage[] = [];
  const flush = () => {
    if (inBatch === 0) return;
    const x = tf.tensor4d(batch.subarray(0, inBatch * 2 * per), [inBatch * 2, n, n, 3]);
    const heat = reader.predict(x);
    const data = heat.dataSync() as Float32Array;
    tf.dispose([x, heat]);
    for (let f = 0; f < inBatch; f++) {
      for (const [k, t] of views.entries()) {
        const p = decodeHeatmaps(data, m, j, (2 * f + k) * m * m * j);
        const uv = peaksToLayout(p, t);
        const conf = o.peakConf === 'margin' ? p.margin : p.conf;
        const [uvs, confs] = k === 0 ? [peaks.frontUv, peaks.frontConf] : [peaks.sideUv, peaks.sideConf];
        for (const v of uv) uvs.push(v);
        for (const v of conf) confs.push(v);
      }
    }
    done += inBatch;
    inBatch = 0;
    o.onBatch?.(done);
  };
  let index = 0;
  for await (const frame of frames) {
    const calib = calibOf(index++);
    for (const [k, t] of views.entries())
      frameToInput(frame, calib, t, layout, batch, (2 * inBatch + k) * per);
    if (o.keepFrames) pending.push(toLayout(frame, calib, layout));
    inBatch++;
    if (inBatch === o.batchFrames) {
      flush();
      yield* pending.splice(0);
    }
  }
  flush();
  yield* pending.splice(0);
}

/** Largest move (layout px) of a calibration that {@link toLayout} treats as the identity. */
const SAME_FRAME_PX = 0.01;

/**
 * A clip frame in layout px: itself when the calibration moves no pixel centre of the layout by
 * more than {@link SAME_FRAME_PX} (a clip already in the layout, whose fitted calibration is the
 * identity but for a rounding-level shift), else resampled through it.
 */
export function toLayout(frame: RgbImage, c: ClipCalib, layout: Layout): RgbImage {
  const W = layout.WIDTH;
  const H = layout.HEIGHT;
  // a scale and shift moves points most at the frame's edges
  const move = Math.max(
    Math.abs(c.tx),
    Math.abs((c.sx - 1) * W + c.tx),
    Math.abs(c.ty),
    Math.abs((c.sy - 1) * H + c.ty),
  );
  if (frame.width === W && frame.height === H && move <= SAME_FRAME_PX) return frame;
  return warpScaleShift(frame, [c.sx, c.sy, c.tx, c.ty], layout.WIDTH, layout.HEIGHT, layout.colours.wall);
}

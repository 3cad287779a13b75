import * as tf from '@tensorflow/tfjs-core';
import type { Reader } from './create-reader.js';
import type { DatasetItem } from './dataset.js';
import { decodeHeatmaps, peaksToLayout } from './heatmap-decode.js';
import { errorStats, type ReaderErrors } from './reader-errors.js';
import { imagesToTensor } from './view-input.js';

/** Predicted joints of one item: layout px, confidence and peak margin per joint (see `decodeHeatmaps`). */
export interface ItemPrediction {
  uv: Float32Array;
  conf: Float32Array;
  margin: Float32Array;
}

/**
 * Runs the reader on prepared items (no augmentation) in batches and decodes each view's peaks to
 * layout px.
 *
 * ```ts
 * const preds = predictItems(reader, heldOutItems);
 * ```
 */
export function predictItems(reader: Reader, items: readonly DatasetItem[], batchSize = 8): ItemPrediction[] {
  const n = reader.config.inputSize;
  const m = reader.heatmapSize;
  const joints = reader.config.joints.length;
  const out: ItemPrediction[] = [];
  for (let i = 0; i < items.length; i += batchSize) {
    const batch = items.slice(i, i + batchSize);
    const heat = tf.tidy(() =>
      reader.predict(
        imagesToTensor(
          batch.map((b) => b.pixels),
          n,
        ),
      ),
    );
    const data = heat.dataSync() as Float32Array;
    heat.dispose();
    batch.forEach((item, k) => {
      const peaks = decodeHeatmaps(data, m, joints, k * m * m * joints);
      out.push({ uv: peaksToLayout(peaks, item.transform), conf: peaks.conf, margin: peaks.margin });
    });
  }
  return out;
}

/**
 * The reader's error on items against their true joints, layout px: per view, both views, and
 * visible joints only.
 *
 * ```ts
 * const errors = evaluateReader(reader, heldOutItems); // errors.all.mean
 * ```
 */
export function evaluateReader(reader: Reader, items: readonly DatasetItem[], batchSize = 8): ReaderErrors {
  const preds = predictItems(reader, items, batchSize);
  const front: number[] = [];
  const side: number[] = [];
  const visible: number[] = [];
  items.forEach((item, i) => {
    const p = preds[i]!;
    for (let j = 0; j < item.uv.length / 2; j++) {
      const e = Math.hypot(p.uv[2 * j]! - item.uv[2 * j]!, p.uv[2 * j + 1]! - item.uv[2 * j + 1]!);
      (item.view === 'front' ? front : side).push(e);
      if (item.visible[j]) visible.push(e);
    }
  });
  return {
    samples: new Set(items.map((i) => i.sample)).size,
    front: errorStats(front),
    side: errorStats(side),
    all: errorStats([...front, ...side]),
    visible: errorStats(visible),
  };
}

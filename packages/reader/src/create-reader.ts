import * as tf from '@tensorflow/tfjs-core';
import { backendReport, initBackend } from './backend.js';
import { addCnnBackbone, cnnBackbone, cnnPyramid, cnnSkipChannels } from './cnn-backbone.js';
import { addDinov2Backbone, dinov2Backbone, loadDinov2Weights } from './dinov2-backbone.js';
import { addHeatmapHead, heatmapHead } from './heatmap-head.js';
import { ParamStore } from './param-store.js';
import { parseOptions } from './parse-options.js';
import { featureGrid, heatmapSize, ReaderConfig, type ReaderConfigInput } from './reader-config.js';
import { readSafetensors } from './safetensors.js';

/**
 * A heatmap reader: backbone + conv head, one heatmap per joint. Holds tfjs variables: call
 * `dispose()` when done.
 */
export interface Reader {
  /** The validated config. */
  readonly config: ReaderConfig;
  /** Side of the heatmaps `predict` returns. */
  readonly heatmapSize: number;
  /** Trainable parameters by name. */
  readonly params: ParamStore;
  /** Heatmaps [B, M, M, J] for images [B, N, N, 3] in [0, 1]. Creates tensors: call inside `tf.tidy` or dispose. */
  predict(images: tf.Tensor4D): tf.Tensor4D;
  /** The backbone's features [B, g, g, C] for images [B, N, N, 3] in [0, 1]. */
  features(images: tf.Tensor4D): tf.Tensor4D;
  /** Frees every parameter. */
  dispose(): void;
}

/**
 * Creates a reader from a config (validated with zod): the small CNN by default, or DINOv2 with
 * registers whose weights load from `backbone.weights` (a Hugging Face safetensors file). Starts
 * the backend with {@link initBackend} unless that ran already.
 *
 * ```ts
 * await initBackend();
 * const reader = await createReader({ joints: ['nose', 'tail'] });
 * const heatmaps = tf.tidy(() => reader.predict(images)); // [B, 64, 64, 2]
 * reader.dispose();
 * ```
 */
export async function createReader(config: ReaderConfigInput): Promise<Reader> {
  const c = parseOptions('createReader', ReaderConfig, config, 'config');
  // Without an explicit initBackend() the fastest backend starts here (wasm with its gradient kernels).
  if (!backendReport()) await initBackend();
  const store = new ParamStore(c.seed);
  const b = c.backbone;
  const grid = featureGrid(c);
  try {
    const channels = b.kind === 'cnn' ? addCnnBackbone(store, b.widths) : addDinov2Backbone(store, b, grid);
    const skipChannels = b.kind === 'cnn' && b.skips ? cnnSkipChannels(b.widths, c.head.upsample) : [];
    addHeatmapHead(store, channels, c.head.channels, c.head.upsample, c.joints.length, skipChannels);
    if (b.kind === 'dinov2' && b.weights) {
      loadDinov2Weights(store, b, grid, await readSafetensors(b.weights), b.weights);
    }
  } catch (err) {
    store.dispose();
    throw err;
  }
  const checkInput = (images: tf.Tensor4D): void => {
    const [, h, w, ch] = images.shape;
    if (h !== c.inputSize || w !== c.inputSize || ch !== 3) {
      throw new TypeError(
        `Reader.predict: Expected images [B, ${c.inputSize}, ${c.inputSize}, 3], got [${images.shape}].`,
      );
    }
  };
  const features = (images: tf.Tensor4D): tf.Tensor4D => {
    checkInput(images);
    return tf.tidy(() =>
      b.kind === 'cnn' ? cnnBackbone(store, b.widths.length, images) : dinov2Backbone(store, b, images),
    );
  };
  return {
    config: c,
    heatmapSize: heatmapSize(c),
    params: store,
    features,
    predict(images) {
      if (b.kind === 'cnn' && b.skips) {
        checkInput(images);
        return tf.tidy(() => {
          const pyramid = cnnPyramid(store, b.widths.length, images);
          const n = pyramid.length;
          const skips = Array.from({ length: c.head.upsample }, (_, i) => pyramid[n - 2 - i]);
          return heatmapHead(store, c.head.upsample, pyramid[n - 1]!, skips);
        });
      }
      return tf.tidy(() => heatmapHead(store, c.head.upsample, features(images)));
    },
    dispose() {
      store.dispose();
    },
  };
}

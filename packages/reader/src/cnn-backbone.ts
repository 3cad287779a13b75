import * as tf from '@tensorflow/tfjs-core';
import { addConv, conv, type ParamStore } from './param-store.js';

/**
 * Creates the small CNN backbone's parameters: per stage a stride-2 3x3 convolution and a 3x3
 * convolution, ReLU after each. Returns the channel count it outputs.
 */
export function addCnnBackbone(store: ParamStore, widths: readonly number[]): number {
  let cin = 3;
  widths.forEach((w, i) => {
    addConv(store, `backbone.stage${i}.down`, 3, cin, w);
    addConv(store, `backbone.stage${i}.conv`, 3, w, w);
    cin = w;
  });
  return cin;
}

/**
 * Runs the CNN backbone on [B, N, N, 3] images in [0, 1] and returns every stage's output, finest
 * first: stage i at 1 / 2^(i+1). The last one is the backbone's features; the earlier ones feed a
 * U-Net head's skip connections.
 */
export function cnnPyramid(store: ParamStore, stages: number, images: tf.Tensor4D): tf.Tensor4D[] {
  let x = tf.div(tf.sub(images, 0.5), 0.25) as tf.Tensor4D;
  const out: tf.Tensor4D[] = [];
  for (let i = 0; i < stages; i++) {
    x = tf.relu(conv(store, `backbone.stage${i}.down`, x, 2));
    x = tf.relu(conv(store, `backbone.stage${i}.conv`, x));
    out.push(x);
  }
  return out;
}

/** Runs the CNN backbone on [B, N, N, 3] images in [0, 1]: features at 1 / 2^stages. */
export function cnnBackbone(store: ParamStore, stages: number, images: tf.Tensor4D): tf.Tensor4D {
  return cnnPyramid(store, stages, images)[stages - 1]!;
}

/**
 * The skip inputs of a U-Net head over a CNN backbone of `widths`: for each of the head's
 * `upsample` stages, the channel count of the backbone stage at the resolution it upsamples to
 * (0 where the backbone has none, i.e. finer than its first stage).
 */
export function cnnSkipChannels(widths: readonly number[], upsample: number): number[] {
  return Array.from({ length: upsample }, (_, i) => widths[widths.length - 2 - i] ?? 0);
}

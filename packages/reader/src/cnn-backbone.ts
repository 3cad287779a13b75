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

/** Runs the CNN backbone on [B, N, N, 3] images in [0, 1]: features at 1 / 2^stages. */
export function cnnBackbone(store: ParamStore, stages: number, images: tf.Tensor4D): tf.Tensor4D {
  let x = tf.div(tf.sub(images, 0.5), 0.25) as tf.Tensor4D;
  for (let i = 0; i < stages; i++) {
    x = tf.relu(conv(store, `backbone.stage${i}.down`, x, 2));
    x = tf.relu(conv(store, `backbone.stage${i}.conv`, x));
  }
  return x;
}

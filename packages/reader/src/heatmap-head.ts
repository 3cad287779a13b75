import * as tf from '@tensorflow/tfjs-core';
import { addConv, conv, type ParamStore } from './param-store.js';

/** Creates the conv head's parameters: a 3x3 in, `upsample` x (2x bilinear + 3x3), a 1x1 out. */
export function addHeatmapHead(
  store: ParamStore,
  cin: number,
  channels: number,
  upsample: number,
  joints: number,
): void {
  addConv(store, 'head.in', 3, cin, channels);
  for (let i = 0; i < upsample; i++) addConv(store, `head.up${i}`, 3, channels, channels);
  addConv(store, 'head.out', 1, channels, joints);
}

/** Runs the head on backbone features: one heatmap per joint at features x 2^upsample. */
export function heatmapHead(store: ParamStore, upsample: number, features: tf.Tensor4D): tf.Tensor4D {
  let x = tf.relu(conv(store, 'head.in', features));
  for (let i = 0; i < upsample; i++) {
    const [, h, w] = x.shape;
    x = tf.image.resizeBilinear(x, [h * 2, w * 2], false, true);
    x = tf.relu(conv(store, `head.up${i}`, x));
  }
  return conv(store, 'head.out', x);
}

import * as tf from '@tensorflow/tfjs-core';
import { addConv, conv, type ParamStore } from './param-store.js';

/**
 * Creates the conv head's parameters: a 3x3 in, `upsample` x (2x bilinear + 3x3), a 1x1 out.
 * `skipChannels[i]` (U-Net skips, default none) widens upsampling stage i's input by the encoder
 * features concatenated to it.
 */
export function addHeatmapHead(
  store: ParamStore,
  cin: number,
  channels: number,
  upsample: number,
  joints: number,
  skipChannels: readonly number[] = [],
): void {
  addConv(store, 'head.in', 3, cin, channels);
  for (let i = 0; i < upsample; i++)
    addConv(store, `head.up${i}`, 3, channels + (skipChannels[i] ?? 0), channels);
  addConv(store, 'head.out', 1, channels, joints);
}

/**
 * Runs the head on backbone features: one heatmap per joint at features x 2^upsample. With
 * `skips`, `skips[i]` (encoder features at the resolution upsampling stage i reaches, or
 * undefined) is concatenated on the channel axis before that stage's convolution.
 */
export function heatmapHead(
  store: ParamStore,
  upsample: number,
  features: tf.Tensor4D,
  skips: readonly (tf.Tensor4D | undefined)[] = [],
): tf.Tensor4D {
  let x = tf.relu(conv(store, 'head.in', features));
  for (let i = 0; i < upsample; i++) {
    const [, h, w] = x.shape;
    x = tf.image.resizeBilinear(x, [h * 2, w * 2], false, true);
    const s = skips[i];
    if (s) x = tf.concat([x, s], 3);
    x = tf.relu(conv(store, `head.up${i}`, x));
  }
  return conv(store, 'head.out', x);
}

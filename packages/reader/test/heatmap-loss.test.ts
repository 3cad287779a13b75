import { initBackend } from '@mocap/reader';
import { heatmapLoss } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';

describe('heatmapLoss', () => {
  beforeAll(async () => {
    await initBackend({ order: ['wasm', 'cpu'] });
  });

  const target = [0, 0.5, 1, 0];
  const pred = [0.1, 0.2, 0.4, -0.3];
  const t = () => tf.tensor4d(target, [1, 2, 2, 1]);
  const p = () => tf.tensor4d(pred, [1, 2, 2, 1]);

  it('is the plain mean squared error with peakWeight 0', () => {
    const base = tf.memory().numTensors;
    const want = pred.reduce((a, v, i) => a + (v - target[i]!) ** 2, 0) / 4;
    expect(tf.tidy(() => heatmapLoss(p(), t()).dataSync()[0]!)).toBeCloseTo(want, 6);
    expect(tf.memory().numTensors).toBe(base);
  });

  it('weighs each pixel 1 + peakWeight * target, and is zero at the target', () => {
    const want = pred.reduce((a, v, i) => a + (v - target[i]!) ** 2 * (1 + 20 * target[i]!), 0) / 4;
    expect(tf.tidy(() => heatmapLoss(p(), t(), 20).dataSync()[0]!)).toBeCloseTo(want, 5);
    expect(tf.tidy(() => heatmapLoss(t(), t(), 20).dataSync()[0]!)).toBe(0);
  });
});

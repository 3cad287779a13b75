import * as tf from '@tensorflow/tfjs-core';

/**
 * The training loss of heatmaps: the mean squared error, each pixel weighted
 * `1 + peakWeight * target`. The minimiser is the target itself for any weight, but with
 * `peakWeight > 0` the peaks (a fraction of a percent of the pixels) are not drowned by the
 * backdrop, so training leaves the all-zero plateau sooner. `peakWeight` 0 is the plain MSE.
 *
 * ```ts
 * const loss = tf.tidy(() => heatmapLoss(reader.predict(x), y, 20));
 * ```
 */
export function heatmapLoss(pred: tf.Tensor4D, target: tf.Tensor4D, peakWeight = 0): tf.Scalar {
  return tf.tidy(() => {
    const se = tf.squaredDifference(pred, target);
    if (peakWeight === 0) return tf.mean(se) as tf.Scalar;
    return tf.mean(tf.mul(se, tf.add(1, tf.mul(target, peakWeight)))) as tf.Scalar;
  });
}

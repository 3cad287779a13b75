import type { Rgb } from '@mocap/layout';
import { padToSquare, type RgbImage, resize } from '@mocap/media';
import * as tf from '@tensorflow/tfjs-core';

/**
 * One view image as the reader's input: padded to a centred square with `fill` (the backdrop
 * grey), then shrunk to `inputSize` with the area filter.
 *
 * ```ts
 * const input = viewToInput(front, 256, layout.colours.wall); // 256 x 256
 * ```
 */
export function viewToInput(view: RgbImage, inputSize: number, fill: Rgb): RgbImage {
  return resize(padToSquare(view, fill), inputSize, inputSize, { method: 'area' });
}

/**
 * Stacks same-sized RGB images (or raw N*N*3 byte arrays) into a float [B, N, N, 3] tensor in [0, 1].
 *
 * ```ts
 * const x = imagesToTensor([a, b], 256);
 * ```
 */
export function imagesToTensor(images: (RgbImage | Uint8Array | Float32Array)[], size: number): tf.Tensor4D {
  const per = size * size * 3;
  const out = new Float32Array(images.length * per);
  images.forEach((img, i) => {
    const data = 'data' in img ? img.data : img;
    if (data.length !== per) {
      throw new TypeError(
        `imagesToTensor: Expected ${size} x ${size} RGB (${per} values) at [${i}], got ${data.length}.`,
      );
    }
    const scale = data instanceof Float32Array ? 1 : 1 / 255;
    for (let k = 0; k < per; k++) out[i * per + k] = data[k]! * scale;
  });
  return tf.tensor4d(out, [images.length, size, size, 3]);
}

import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { createImage } from '@mocap/media';
import { createReader, decodeHeatmaps, initBackend, type Reader, viewToInput } from '@mocap/reader';
import { AdamW, AugmentOptions, augment } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { bench, describe } from 'vitest';

// Reader speed on the backend initBackend picks (wasm here): one training step of the default
// small CNN (batch 8, 256 px -> 64 px heatmaps, 17 joints), inference per view, input preparation,
// augmentation and decoding. Run: pnpm --filter @mocap/reader bench
const report = await initBackend();
console.log(`backend: ${report.choice}`);
const J = 17;
const reader: Reader = await createReader({ joints: Array.from({ length: J }, (_, i) => `j${i}`) });
console.log(`default reader: ${reader.params.count()} parameters, heatmaps ${reader.heatmapSize} px`);
const opt = new AdamW();
const vars = [...reader.params.vars.values()];
const x8 = tf.randomUniform([8, 256, 256, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
const y8 = tf.randomUniform([8, 64, 64, J], 0, 1, 'float32', 2) as tf.Tensor4D;
const x1 = tf.slice(x8, [0, 0, 0, 0], [1, 256, 256, 3]) as tf.Tensor4D;
const side = createImage(DEFAULT_LAYOUT.W_SIDE, DEFAULT_LAYOUT.HEIGHT, DEFAULT_LAYOUT.colours.wall);
const pixels = viewToInput(side, 256, DEFAULT_LAYOUT.colours.wall).data;
const mask = new Uint8Array(256 * 256).fill(1);
const heat = new Float32Array(64 * 64 * J).map((_, i) => Math.sin(i));
const aug = AugmentOptions.parse({ backdrop: 1, blur: 1, compress: 1 });
let seed = 0;

const slow = { iterations: 5, warmupIterations: 1, time: 0, warmupTime: 0 };
const fast = { iterations: 20, warmupIterations: 2, time: 0, warmupTime: 0 };

describe(`reader on ${report.choice}`, () => {
  bench(
    'train step: batch 8, 256 px, default CNN (forward + backward + AdamW)',
    async () => {
      const { value, grads } = tf.variableGrads(
        () => tf.mean(tf.squaredDifference(reader.predict(x8), y8)) as tf.Scalar,
        vars,
      );
      opt.step(reader.params.vars, grads, () => 1e-4);
      await value.data();
      tf.dispose([value, ...Object.values(grads)]);
    },
    slow,
  );
  bench(
    'inference: 1 view (256 px)',
    async () => {
      const h = reader.predict(x1);
      await h.data();
      h.dispose();
    },
    fast,
  );
  bench(
    'inference: batch of 8 views (256 px)',
    async () => {
      const h = reader.predict(x8);
      await h.data();
      h.dispose();
    },
    slow,
  );
  bench(
    'prepare a side view: pad to square + area resize 860x720 -> 256',
    () => {
      viewToInput(side, 256, DEFAULT_LAYOUT.colours.wall);
    },
    fast,
  );
  bench(
    'augment one 256 px input (all steps on)',
    () => {
      augment(
        pixels,
        mask,
        new Float32Array(2 * J),
        256,
        seededRandom(seed++),
        aug,
        DEFAULT_LAYOUT.colours.wall,
      );
    },
    fast,
  );
  bench(
    'decode 17 heatmaps of 64 px',
    () => {
      decodeHeatmaps(heat, 64, J);
    },
    fast,
  );
});

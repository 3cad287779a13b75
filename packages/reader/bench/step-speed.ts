// Training-step time of reader configs on the current backend: batch B of random images, the
// forward + backward + AdamW step that trainReader takes, median of N steps after one warm-up.
// Run from the repo root:
//   node --conditions=@mocap/source --import tsx packages/reader/bench/step-speed.ts [steps] [batch]
import { createReader, initBackend, type ReaderConfigInput } from '@mocap/reader';
import { AdamW } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';

const steps = Number(process.argv[2] ?? 4);
const batch = Number(process.argv[3] ?? 8);
const joints = Array.from({ length: 34 }, (_, i) => `j${i}`);
const configs: Record<string, Omit<ReaderConfigInput, 'joints'>> = {
  'cnn default (256)': {},
  'u-net 5 stages (256)': {
    backbone: { kind: 'cnn', widths: [16, 32, 48, 64, 96], skips: true },
    head: { channels: 48, upsample: 3 },
  },
  'u-net 5 stages, head 32 (256)': {
    backbone: { kind: 'cnn', widths: [16, 32, 48, 64, 96], skips: true },
    head: { channels: 32, upsample: 3 },
  },
  'u-net 5 stages (192)': {
    inputSize: 192,
    backbone: { kind: 'cnn', widths: [16, 32, 48, 64, 96], skips: true },
    head: { channels: 48, upsample: 3 },
  },
};
const { choice } = await initBackend();
console.log(`backend ${choice}, batch ${batch}, ${steps} timed steps`);
for (const [name, cfg] of Object.entries(configs)) {
  const reader = await createReader({ ...cfg, joints });
  const n = reader.config.inputSize;
  const m = reader.heatmapSize;
  const opt = new AdamW(0.9, 0.999, 1e-8, 1e-4);
  const vars = [...reader.params.vars.values()];
  const x = tf.randomUniform([batch, n, n, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
  const y = tf.randomUniform([batch, m, m, joints.length], 0, 0.1, 'float32', 2) as tf.Tensor4D;
  const ms: number[] = [];
  for (let s = 0; s <= steps; s++) {
    const t0 = performance.now();
    const { value, grads } = tf.variableGrads(
      () => tf.mean(tf.squaredDifference(reader.predict(x), y)) as tf.Scalar,
      vars,
    );
    opt.step(reader.params.vars, grads, () => 1e-3);
    await value.data();
    tf.dispose([value, ...Object.values(grads)]);
    if (s > 0) ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  console.log(
    `${name}: ${reader.params.count()} params, heatmaps ${m} px, step median ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms (min ${ms[0]!.toFixed(0)})`,
  );
  tf.dispose([x, y]);
  opt.dispose();
  reader.dispose();
}

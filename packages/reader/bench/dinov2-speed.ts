// One-off timing of DINOv2 ViT-B/14 with registers (random weights, the real sizes) at 448 px on
// the backend initBackend picks. Run from the repo root:
//   node --conditions=@mocap/source --import tsx packages/reader/bench/dinov2-speed.ts [runs] [layers]
// (layers < 12 times a truncated ViT-B to extrapolate from on a slow machine).
import { createReader, initBackend } from '@mocap/reader';
import * as tf from '@tensorflow/tfjs-core';

const runs = Number(process.argv[2] ?? 3);
const layers = Number(process.argv[3] ?? 12);
const { choice } = await initBackend();
const reader = await createReader({ joints: ['a'], inputSize: 448, backbone: { kind: 'dinov2', layers } });
const x = tf.randomUniform([1, 448, 448, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
const ms: number[] = [];
for (let i = 0; i <= runs; i++) {
  const t0 = performance.now();
  const h = reader.predict(x);
  await h.data();
  h.dispose();
  if (i > 0) ms.push(performance.now() - t0);
}
ms.sort((a, b) => a - b);
console.log(
  `DINOv2 ViT-B/14, ${layers} of 12 layers (${reader.params.count()} parameters) at 448 px on ${choice}: median ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms per view (${runs} runs after a warm-up)`,
);
x.dispose();
reader.dispose();

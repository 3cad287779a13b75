import { initBackend } from '@mocap/reader';
import { randomNormalArray } from '@mocap/reader/internal';
import { maxAbsDiff } from '@mocap/test-utils';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';

type Case = {
  n: number;
  h: number;
  w: number;
  c: number;
  o: number;
  k: number;
  s: number;
  pad: 'same' | 'valid';
};

const cases: Case[] = [];
for (const s of [1, 2])
  for (const pad of ['same', 'valid'] as const) {
    cases.push({ n: 2, h: 9, w: 11, c: 3, o: 4, k: 3, s, pad });
    cases.push({ n: 1, h: 16, w: 16, c: 5, o: 6, k: 1, s, pad });
    cases.push({ n: 3, h: 12, w: 10, c: 4, o: 2, k: 5, s, pad });
  }

function kernelOutputs(backend: string, t: Case, seed: number): { dw: Float32Array; dx: Float32Array } {
  tf.setBackend(backend);
  const xShape: [number, number, number, number] = [t.n, t.h, t.w, t.c];
  const wShape: [number, number, number, number] = [t.k, t.k, t.c, t.o];
  const x = tf.tensor4d(randomNormalArray(t.n * t.h * t.w * t.c, seed), xShape);
  const w = tf.tensor4d(randomNormalArray(t.k * t.k * t.c * t.o, seed + 1), wShape);
  const y = tf.conv2d(x, w, t.s, t.pad);
  const dy = tf.tensor(randomNormalArray(y.size, seed + 2), y.shape);
  const attrs = { strides: [t.s, t.s], pad: t.pad, dataFormat: 'NHWC' };
  const dwT = tf
    .engine()
    .runKernel('Conv2DBackpropFilter', { x, dy }, { ...attrs, filterShape: wShape }) as tf.Tensor;
  const dxT = tf
    .engine()
    .runKernel('Conv2DBackpropInput', { dy, filter: w }, { ...attrs, inputShape: xShape }) as tf.Tensor;
  const out = { dw: dwT.dataSync() as Float32Array, dx: dxT.dataSync() as Float32Array };
  expect(dwT.shape).toEqual(wShape);
  expect(dxT.shape).toEqual(xShape);
  tf.dispose([x, w, y, dy, dwT, dxT]);
  return out;
}

describe('registered wasm gradient kernels', () => {
  beforeAll(async () => {
    const report = await initBackend({ order: ['wasm', 'cpu'] });
    expect(report.choice).toBe('wasm');
  });

  it.each(cases)('match cpu: %o', (t) => {
    const seed = t.h * 100 + t.k * 10 + t.s;
    const cpu = kernelOutputs('cpu', t, seed);
    const wasm = kernelOutputs('wasm', t, seed);
    tf.setBackend('wasm');
    expect(maxAbsDiff(wasm.dw, cpu.dw)).toBeLessThan(1e-4);
    expect(maxAbsDiff(wasm.dx, cpu.dx)).toBeLessThan(1e-4);
  });

  it('drive tf.grads of a strided conv the same as cpu, without leaking tensors', () => {
    const x0 = randomNormalArray(2 * 17 * 15 * 3, 11);
    const w0 = randomNormalArray(3 * 3 * 3 * 8, 12);
    const run = (backend: string) => {
      tf.setBackend(backend);
      const before = tf.memory().numTensors;
      const x = tf.tensor4d(x0, [2, 17, 15, 3]);
      const w = tf.tensor4d(w0, [3, 3, 3, 8]);
      const [gx, gw] = tf.grads((a: tf.Tensor, b: tf.Tensor) =>
        tf.sum(tf.square(tf.conv2d(a as tf.Tensor4D, b as tf.Tensor4D, 2, 'same'))),
      )([x, w]);
      const out = [gx!.dataSync().slice(), gw!.dataSync().slice()] as Float32Array[];
      tf.dispose([x, w, gx!, gw!]);
      expect(tf.memory().numTensors).toBe(before);
      return out;
    };
    const cpu = run('cpu');
    const wasm = run('wasm');
    expect(maxAbsDiff(wasm[0]!, cpu[0]!)).toBeLessThan(1e-3);
    expect(maxAbsDiff(wasm[1]!, cpu[1]!)).toBeLessThan(1e-3);
  });
});

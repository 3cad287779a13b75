import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReader, initBackend, loadReader, saveReader } from '@mocap/reader';
import { AdamW, errorStats } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('saveReader / loadReader', () => {
  const root = mkdtemp(path.join(tmpdir(), 'reader-io-'));
  beforeAll(async () => {
    await initBackend();
  });
  afterAll(async () => rm(await root, { recursive: true, force: true }));

  it('round-trips the weights (tfjs weights manifest) so predictions match exactly', async () => {
    const dir = path.join(await root, 'm');
    const config = {
      joints: ['a', 'b'],
      inputSize: 32,
      backbone: { kind: 'cnn' as const, widths: [4, 8] },
      seed: 3,
    };
    const reader = await createReader(config);
    await saveReader(reader, dir, { training: { step: 5 } });
    const { reader: back, model, extra } = await loadReader(dir, { joints: ['a', 'b'] });
    expect(model.weightsManifest[0]!.paths).toEqual(['weights.bin']);
    expect(model.training).toEqual({ step: 5 });
    expect(Object.keys(extra)).toEqual([]);
    const x = tf.randomUniform([1, 32, 32, 3], 0, 1, 'float32', 1) as tf.Tensor4D;
    const a = reader.predict(x);
    const b = back.predict(x);
    expect(Array.from(b.dataSync())).toEqual(Array.from(a.dataSync()));
    tf.dispose([x, a, b]);
    reader.dispose();
    back.dispose();
  });

  it('fails clearly for other joint names, a missing model and a truncated weights file', async () => {
    const dir = path.join(await root, 'n');
    const reader = await createReader({
      joints: ['a'],
      inputSize: 32,
      backbone: { kind: 'cnn', widths: [4] },
    });
    await saveReader(reader, dir);
    reader.dispose();
    const base = tf.memory().numTensors;
    await expect(loadReader(dir, { joints: ['nose'] })).rejects.toThrow(
      /loadReader: .*model\.json: joints: this reader was trained for \["a"\], the creature has \["nose"\]/,
    );
    await expect(loadReader(path.join(await root, 'none'))).rejects.toThrow(
      /loadReader: .*none\/model\.json/,
    );
    await truncate(path.join(dir, 'weights.bin'), 10);
    await expect(loadReader(dir)).rejects.toThrow(/weights\.bin: 10 bytes, the manifest wants/);
    expect(tf.memory().numTensors).toBe(base);
  });
});

describe('AdamW', () => {
  it('takes the textbook first step and keeps its moments by parameter name', () => {
    const v = tf.variable(tf.tensor1d([1, -2]));
    const opt = new AdamW(0.9, 0.999, 1e-8, 0);
    const g = tf.tensor1d([0.5, -4]);
    opt.step(new Map([['w', v]]), { [v.name]: g }, () => 0.1);
    // Step 1: m_hat = g, v_hat = g^2, so the update is lr * sign(g).
    expect(Array.from(v.dataSync())).toEqual([expect.closeTo(0.9, 6), expect.closeTo(-1.9, 6)]);
    expect(Object.keys(opt.state())).toEqual(['m/w', 'v/w']);
    opt.dispose();
    tf.dispose([v, g]);
  });
});

describe('errorStats', () => {
  it('gives mean, median, p95 (linear) and max', () => {
    expect(errorStats([3, 1, 2])).toEqual({ mean: 2, median: 2, p95: expect.closeTo(2.9, 9), max: 3 });
    expect(errorStats([])).toEqual({ mean: 0, median: 0, p95: 0, max: 0 });
  });
});

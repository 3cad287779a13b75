import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Layout } from '@mocap/layout';
import {
  createReader,
  imagesToTensor,
  initBackend,
  loadDataset,
  loadReader,
  type Reader,
  type TrainEvent,
  trainReader,
  writeBlobDataset,
} from '@mocap/reader';
import { gaussianHeatmaps, layoutToInput } from '@mocap/reader/internal';
import { QUARTER_LAYOUT } from '@mocap/test-utils';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A small frame (a quarter of the default each way) keeps the test fast. */
const layout = Layout.parse(QUARTER_LAYOUT);
const model = {
  inputSize: 64,
  backbone: { kind: 'cnn' as const, widths: [8, 16, 16] },
  head: { channels: 16, upsample: 1 },
};

/** Heatmap MSE of a reader on the un-augmented views of a dataset. */
async function plainLoss(reader: Reader, dir: string): Promise<number> {
  const ds = await loadDataset(dir, { layout, inputSize: 64, heatmapSize: reader.heatmapSize });
  const m = reader.heatmapSize;
  const j = ds.names.length;
  const target = new Float32Array(ds.items.length * m * m * j);
  ds.items.forEach((item, i) => {
    const xy = new Float32Array(j * 2);
    for (let k = 0; k < j; k++) {
      const [x, y] = layoutToInput(item.transform, item.uv[2 * k]!, item.uv[2 * k + 1]!);
      xy[2 * k] = (x * m) / 64;
      xy[2 * k + 1] = (y * m) / 64;
    }
    gaussianHeatmaps(xy, m, 2, target, i * m * m * j);
  });
  const loss = tf.tidy(() => {
    const pred = reader.predict(
      imagesToTensor(
        ds.items.map((i) => i.pixels),
        64,
      ),
    );
    return tf.mean(tf.squaredDifference(pred, tf.tensor4d(target, pred.shape))).dataSync()[0]!;
  });
  return loss;
}

describe('trainReader', () => {
  const root = mkdtemp(path.join(tmpdir(), 'reader-train-'));
  let data = '';
  beforeAll(async () => {
    await initBackend();
    data = path.join(await root, 'data');
    await writeBlobDataset(data, { samples: 10, seed: 4, layout, radius: 12 });
  });
  afterAll(async () => rm(await root, { recursive: true, force: true }));

  it('lowers the loss in a few seeded steps, holds out 4% (at least one sample), saves a loadable reader', async () => {
    const out = path.join(await root, 'a');
    const events: TrainEvent[] = [];
    const base = tf.memory().numTensors;
    const r = await trainReader(
      { dataset: data, out, layout, model, steps: 30, batchSize: 4, lr: 3e-3, checkpointEvery: 10 },
      (e) => events.push(e),
    );
    expect(tf.memory().numTensors).toBe(base);
    expect(r.backend).toBe('wasm');
    expect(r).toMatchObject({ startStep: 0, trainSamples: 9, heldOutSamples: 1 });
    expect(r.losses).toHaveLength(30);
    expect(events.filter((e) => e.phase === 'load')).toHaveLength(10);
    expect(events.filter((e) => e.phase === 'checkpoint').map((e) => (e as { step: number }).step)).toEqual([
      10, 20, 30,
    ]);
    expect(r.heldOut!.samples).toBe(1);
    for (const k of ['front', 'side', 'all', 'visible'] as const)
      expect(r.heldOut![k].mean).toBeGreaterThan(0);
    const { reader, model: saved } = await loadReader(out, { joints: ['head', 'tail', 'lfoot', 'rfoot'] });
    expect(saved.heldOut).toEqual(r.heldOut);
    expect(saved.training).toMatchObject({ step: 30, backend: 'wasm', heldOutSamples: 1 });
    const untrained = await createReader({ ...model, joints: saved.joints });
    const before = await plainLoss(untrained, data);
    const after = await plainLoss(reader, data);
    expect(after).toBeLessThan(0.5 * before);
    reader.dispose();
    untrained.dispose();
    expect(tf.memory().numTensors).toBe(base);
  });

  it('stops on abort with a checkpoint and resumes to the same weights as an uninterrupted run', async () => {
    const straight = path.join(await root, 'straight');
    const resumed = path.join(await root, 'resumed');
    const opts = {
      dataset: data,
      layout,
      model,
      batchSize: 2,
      lr: 3e-3,
      checkpointEvery: 5,
      seed: 7,
      steps: 12,
    };
    await trainReader({ ...opts, out: straight });
    const stop = new AbortController();
    const abortAt8 = (e: TrainEvent) => e.phase === 'train' && e.step === 8 && stop.abort();
    await expect(trainReader({ ...opts, out: resumed }, abortAt8, stop.signal)).rejects.toThrow(
      /aborted at step 8; checkpoint saved/,
    );
    const r = await trainReader({ ...opts, out: resumed });
    expect(r.startStep).toBe(8);
    expect(r.losses).toHaveLength(4);
    const a = await loadReader(straight);
    const b = await loadReader(resumed);
    for (const [name, v] of a.reader.params.vars) {
      expect(Array.from(b.reader.params.get(name).dataSync()), name).toEqual(Array.from(v.dataSync()));
    }
    a.reader.dispose();
    b.reader.dispose();
  });

  it('refuses a checkpoint of another config, bad options and a dataset folder without samples', async () => {
    const out = path.join(await root, 'other');
    await trainReader({ dataset: data, out, layout, model, steps: 2, batchSize: 1 });
    await expect(
      trainReader({
        dataset: data,
        out,
        layout,
        model: { ...model, head: { channels: 8, upsample: 1 } },
        steps: 3,
        batchSize: 1,
      }),
    ).rejects.toThrow(/checkpoint\/model.json: config differs/);
    await expect(trainReader({ dataset: data, out, steps: 0 })).rejects.toThrow(
      /trainReader: options\.steps: .* \(got 0\)/,
    );
    await expect(trainReader({ dataset: data, out, model: { inputSize: 250 } })).rejects.toThrow(
      /trainReader: options\.model\.inputSize: inputSize 250 is not a multiple of the backbone stride 16/,
    );
    await expect(trainReader({ dataset: await root, out, layout, model, steps: 1 })).rejects.toThrow(
      /loadDataset: .*: no <i>_meta.json samples/,
    );
  });
});

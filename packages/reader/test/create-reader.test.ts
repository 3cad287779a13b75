import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReader, initBackend } from '@mocap/reader';
import {
  type Dinov2Backbone,
  dinov2TensorShapes,
  randomNormalArray,
  resizeGridBicubic,
  writeSafetensors,
} from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';

const TINY = {
  kind: 'dinov2',
  hidden: 8,
  layers: 2,
  heads: 2,
  mlpRatio: 2,
  registers: 4,
  patch: 14,
  pretrainedGrid: 4,
} as const;

type Tiny = z.output<typeof Dinov2Backbone>;

/** Random weights for every tensor of a tiny DINOv2-with-registers checkpoint. */
function tinyWeights(b: Tiny, seed: number) {
  const out: Record<string, { shape: number[]; data: Float32Array }> = {};
  let s = seed;
  for (const [name, shape] of dinov2TensorShapes(b)) {
    const n = shape.reduce((a, c) => a * c, 1);
    const data = randomNormalArray(n, s++, name.includes('norm') || name.includes('lambda') ? 0.3 : 0.5);
    if (name.endsWith('norm1.weight') || name.endsWith('norm2.weight') || name === 'layernorm.weight') {
      for (let i = 0; i < n; i++) data[i]! += 1;
    }
    out[`dinov2_with_registers.${name}`] = { shape, data };
  }
  out['dinov2_with_registers.embeddings.mask_token'] = {
    shape: [1, b.hidden],
    data: new Float32Array(b.hidden),
  };
  return out;
}

/** A plain-JS float64 forward of DINOv2 with registers (Hugging Face semantics) for one image. */
function referenceForward(b: Tiny, w: ReturnType<typeof tinyWeights>, img: Float32Array, size: number) {
  const W = (n: string) => w[`dinov2_with_registers.${n}`]!.data;
  const d = b.hidden;
  const g = size / b.patch;
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const pos = W('embeddings.position_embeddings');
  const posGrid = resizeGridBicubic(pos.subarray(d), b.pretrainedGrid, d, g);
  const tokens: number[][] = [];
  tokens.push(Array.from({ length: d }, (_, k) => W('embeddings.cls_token')[k]! + pos[k]!));
  for (let r = 0; r < b.registers; r++)
    tokens.push(Array.from(W('embeddings.register_tokens').subarray(r * d, r * d + d)));
  const pw = W('embeddings.patch_embeddings.projection.weight');
  const pb = W('embeddings.patch_embeddings.projection.bias');
  for (let gy = 0; gy < g; gy++)
    for (let gx = 0; gx < g; gx++) {
      const t = new Array<number>(d).fill(0);
      for (let o = 0; o < d; o++) {
        let acc = pb[o]!;
        for (let c = 0; c < 3; c++)
          for (let ky = 0; ky < b.patch; ky++)
            for (let kx = 0; kx < b.patch; kx++) {
              const px = img[((gy * b.patch + ky) * size + gx * b.patch + kx) * 3 + c]!;
              acc += pw[((o * 3 + c) * b.patch + ky) * b.patch + kx]! * ((px - mean[c]!) / std[c]!);
            }
        t[o] = acc + posGrid[(gy * g + gx) * d + o]!;
      }
      tokens.push(t);
    }
  const ln = (x: number[], wt: Float32Array, bs: Float32Array) => {
    const m = x.reduce((a, v) => a + v, 0) / x.length;
    const v = x.reduce((a, u) => a + (u - m) ** 2, 0) / x.length;
    return x.map((u, i) => ((u - m) / Math.sqrt(v + 1e-6)) * wt[i]! + bs[i]!);
  };
  const lin = (x: number[], wt: Float32Array, bs: Float32Array) =>
    Array.from(bs, (bias, o) => x.reduce((a, u, i) => a + u * wt[o * x.length + i]!, bias));
  const erf = (x: number) => {
    // Abramowitz-Stegun 7.1.26 is too coarse; integrate instead (Simpson, 2000 steps).
    const n = 2000;
    const h = x / n;
    let s = 0;
    for (let i = 0; i <= n; i++) s += (i === 0 || i === n ? 1 : i % 2 ? 4 : 2) * Math.exp(-((i * h) ** 2));
    return ((2 / Math.sqrt(Math.PI)) * s * h) / 3;
  };
  let h = tokens;
  const dh = d / b.heads;
  for (let l = 0; l < b.layers; l++) {
    const L = (n: string) => W(`encoder.layer.${l}.${n}`);
    const a = h.map((t) => ln(t, L('norm1.weight'), L('norm1.bias')));
    const q = a.map((t) =>
      lin(t, L('attention.attention.query.weight'), L('attention.attention.query.bias')),
    );
    const k = a.map((t) => lin(t, L('attention.attention.key.weight'), L('attention.attention.key.bias')));
    const v = a.map((t) =>
      lin(t, L('attention.attention.value.weight'), L('attention.attention.value.bias')),
    );
    const ctx = h.map(() => new Array<number>(d).fill(0));
    for (let hd = 0; hd < b.heads; hd++)
      for (let i = 0; i < h.length; i++) {
        const sc = k.map((kk) => {
          let s = 0;
          for (let e = 0; e < dh; e++) s += q[i]![hd * dh + e]! * kk[hd * dh + e]!;
          return s / Math.sqrt(dh);
        });
        const mx = Math.max(...sc);
        const ex = sc.map((s) => Math.exp(s - mx));
        const z = ex.reduce((x, y) => x + y, 0);
        for (let j = 0; j < h.length; j++)
          for (let e = 0; e < dh; e++) ctx[i]![hd * dh + e]! += (ex[j]! / z) * v[j]![hd * dh + e]!;
      }
    h = h.map((t, i) => {
      const o = lin(ctx[i]!, L('attention.output.dense.weight'), L('attention.output.dense.bias'));
      return t.map((u, e) => u + o[e]! * L('layer_scale1.lambda1')[e]!);
    });
    h = h.map((t) => {
      const m = lin(ln(t, L('norm2.weight'), L('norm2.bias')), L('mlp.fc1.weight'), L('mlp.fc1.bias'));
      const f = lin(
        m.map((u) => 0.5 * u * (1 + erf(u / Math.SQRT2))),
        L('mlp.fc2.weight'),
        L('mlp.fc2.bias'),
      );
      return t.map((u, e) => u + f[e]! * L('layer_scale2.lambda1')[e]!);
    });
  }
  return h.slice(1 + b.registers).map((t) => ln(t, W('layernorm.weight'), W('layernorm.bias')));
}

describe('createReader', () => {
  const dir = mkdtemp(path.join(tmpdir(), 'reader-dino-'));
  beforeAll(async () => {
    await initBackend({ order: ['wasm', 'cpu'] });
  });
  afterAll(async () => rm(await dir, { recursive: true, force: true }));

  it('builds the default small CNN: 256 px in, one 64 px heatmap per joint, no tensor leak', async () => {
    const base = tf.memory().numTensors;
    const reader = await createReader({ joints: ['a', 'b', 'c'] });
    expect(reader.config.backbone.kind).toBe('cnn');
    expect(reader.heatmapSize).toBe(64);
    const images = tf.randomUniform([2, 256, 256, 3]) as tf.Tensor4D;
    const before = tf.memory().numTensors;
    const out = reader.predict(images);
    expect(out.shape).toEqual([2, 64, 64, 3]);
    out.dispose();
    expect(tf.memory().numTensors).toBe(before);
    images.dispose();
    reader.dispose();
    expect(tf.memory().numTensors).toBe(base);
  });

  it('builds the U-Net CNN: skips from the encoder stages widen the head, every one of them used', async () => {
    const base = tf.memory().numTensors;
    const reader = await createReader({
      joints: ['a', 'b'],
      inputSize: 64,
      backbone: { kind: 'cnn', widths: [4, 6, 8, 10, 12], skips: true },
      head: { channels: 5, upsample: 3 },
    });
    expect(reader.heatmapSize).toBe(16);
    // up0 reaches 1/16 (stage 3, 10 ch), up1 1/8 (stage 2, 8 ch), up2 1/4 (stage 1, 6 ch).
    expect(reader.params.get('head.up0.weight').shape).toEqual([3, 3, 15, 5]);
    expect(reader.params.get('head.up1.weight').shape).toEqual([3, 3, 13, 5]);
    expect(reader.params.get('head.up2.weight').shape).toEqual([3, 3, 11, 5]);
    const images = tf.randomUniform([2, 64, 64, 3], 0, 1, 'float32', 3) as tf.Tensor4D;
    const before = tf.memory().numTensors;
    const out = reader.predict(images);
    expect(out.shape).toEqual([2, 16, 16, 2]);
    const ref = await out.data();
    out.dispose();
    // Zeroing one upsampling stage's skip-channel weights changes the heatmaps: the skip is wired.
    for (const k of [0, 1, 2]) {
      const w = reader.params.get(`head.up${k}.weight`);
      const saved = w.clone();
      tf.tidy(() => {
        const mask = tf.concat([tf.ones([3, 3, 5, 5]), tf.zeros([3, 3, w.shape[2]! - 5, 5])], 2);
        w.assign(tf.mul(w, mask));
      });
      const changed = tf.tidy(() => reader.predict(images));
      const d = await changed.data();
      changed.dispose();
      expect(Math.max(...d.map((v, i) => Math.abs(v - ref[i]!)))).toBeGreaterThan(1e-6);
      w.assign(saved);
      saved.dispose();
    }
    const { value, grads } = tf.variableGrads(() => tf.mean(tf.square(reader.predict(images))) as tf.Scalar);
    for (const [name, g] of Object.entries(grads)) {
      const s = tf.tidy(() => tf.sum(tf.abs(g)).dataSync()[0]!);
      expect(Number.isFinite(s) && s > 0, name).toBe(true);
    }
    tf.dispose([value, ...Object.values(grads)]);
    expect(tf.memory().numTensors).toBe(before);
    images.dispose();
    reader.dispose();
    expect(tf.memory().numTensors).toBe(base);
  });

  it('rejects a bad config with the field named', async () => {
    await expect(createReader({ joints: [] })).rejects.toThrow(/createReader: config\.joints/);
    await expect(createReader({ joints: ['a'], inputSize: 250 })).rejects.toThrow(
      /inputSize 250 is not a multiple/,
    );
    await expect(createReader({ joints: ['a', 'a'] })).rejects.toThrow(/joint names repeat/);
  });

  it('maps every tensor of a tiny DINOv2-with-registers safetensors file and runs it like the reference', async () => {
    const file = path.join(await dir, 'tiny.safetensors');
    const b = { ...TINY, weights: file, layerNormEps: 1e-6 } as Tiny;
    const weights = tinyWeights(b, 5);
    await writeSafetensors(file, weights);
    const base = tf.memory().numTensors;
    const reader = await createReader({
      joints: ['a', 'b'],
      inputSize: 42,
      backbone: b,
      head: { upsample: 1 },
    });
    // Every checkpoint tensor landed in a parameter (the position embeddings resized to 3 x 3).
    for (const [name, shape] of dinov2TensorShapes(b)) {
      const v = reader.params.get(`backbone.${name}`);
      if (name === 'embeddings.position_embeddings') {
        expect(v.shape).toEqual([1, 1 + 9, 8]);
        continue;
      }
      expect(v.shape).toEqual(shape);
      expect(Array.from(v.dataSync())).toEqual(Array.from(weights[`dinov2_with_registers.${name}`]!.data));
    }
    const img = Float32Array.from(randomNormalArray(42 * 42 * 3, 9), (v) => 0.5 + 0.2 * v);
    const images = tf.tensor4d(img, [1, 42, 42, 3]);
    const before = tf.memory().numTensors;
    const feats = reader.features(images);
    expect(feats.shape).toEqual([1, 3, 3, 8]);
    const got = feats.dataSync();
    const want = referenceForward(b, weights, img, 42).flat();
    let worst = 0;
    for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
    expect(worst).toBeLessThan(1e-3);
    const heat = reader.predict(images);
    expect(heat.shape).toEqual([1, 6, 6, 2]);
    tf.dispose([feats, heat]);
    expect(tf.memory().numTensors).toBe(before);
    images.dispose();
    reader.dispose();
    expect(tf.memory().numTensors).toBe(base);
  });

  it('trains the tiny DINOv2 end to end: finite gradients for every parameter, no leak', async () => {
    const b = { ...TINY } as Tiny;
    const reader = await createReader({ joints: ['a'], inputSize: 28, backbone: b, head: { upsample: 1 } });
    const x = tf.randomUniform([2, 28, 28, 3], 0, 1, 'float32', 3) as tf.Tensor4D;
    const base = tf.memory().numTensors;
    const { value, grads } = tf.variableGrads(
      () => tf.mean(tf.square(reader.predict(x))) as tf.Scalar,
      [...reader.params.vars.values()],
    );
    expect(Object.keys(grads)).toHaveLength(reader.params.vars.size);
    let norm = 0;
    for (const g of Object.values(grads)) {
      const d = g.dataSync();
      for (const v of d) norm += v * v;
    }
    expect(Number.isFinite(norm) && norm > 0).toBe(true);
    tf.dispose([value, ...Object.values(grads)]);
    expect(tf.memory().numTensors).toBe(base);
    x.dispose();
    reader.dispose();
  });

  it('fails clearly on a missing, mis-shaped or unknown tensor, leaking nothing', async () => {
    const file = path.join(await dir, 'bad.safetensors');
    const b = { ...TINY, weights: file } as Tiny;
    const base = tf.memory().numTensors;
    const make = async (edit: (w: ReturnType<typeof tinyWeights>) => void) => {
      const w = tinyWeights(b, 1);
      edit(w);
      await writeSafetensors(file, w);
      return createReader({ joints: ['a'], inputSize: 42, backbone: b });
    };
    await expect(make((w) => delete w['dinov2_with_registers.encoder.layer.1.mlp.fc2.bias'])).rejects.toThrow(
      `createReader: ${file}: tensor "encoder.layer.1.mlp.fc2.bias" is missing`,
    );
    await expect(
      make((w) => {
        w['dinov2_with_registers.encoder.layer.0.attention.attention.key.weight'] = {
          shape: [8, 4],
          data: new Float32Array(32),
        };
      }),
    ).rejects.toThrow(
      'tensor "encoder.layer.0.attention.attention.key.weight" has shape [8,4], expected [8,8]',
    );
    await expect(
      make((w) => {
        w['dinov2_with_registers.pooler.weight'] = { shape: [1], data: new Float32Array(1) };
      }),
    ).rejects.toThrow('tensor "pooler.weight" is not part of DINOv2 with registers');
    expect(tf.memory().numTensors).toBe(base);
  });
});

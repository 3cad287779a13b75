import * as tf from '@tensorflow/tfjs-core';
import { resizeGridBicubic } from './bicubic.js';
import type { ParamStore } from './param-store.js';
import type { ReaderConfig } from './reader-config.js';
import type { SafeTensor } from './safetensors.js';

type Dinov2 = Extract<ReaderConfig['backbone'], { kind: 'dinov2' }>;

const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];
/** Tensors of a Hugging Face checkpoint that the backbone does not use. */
const UNUSED = new Set(['embeddings.mask_token']);
/** Prefixes a task model puts before the backbone's names. */
const PREFIXES = ['dinov2_with_registers.', 'dinov2.', 'backbone.'];

/**
 * The tensors of a Hugging Face `Dinov2WithRegistersModel` checkpoint and their shapes there
 * (linear weights [out, in], the patch projection [hidden, 3, patch, patch], position embeddings for
 * the pretrained grid).
 */
export function dinov2TensorShapes(b: Dinov2): Map<string, number[]> {
  const d = b.hidden;
  const f = b.hidden * b.mlpRatio;
  const s = new Map<string, number[]>([
    ['embeddings.cls_token', [1, 1, d]],
    ['embeddings.register_tokens', [1, b.registers, d]],
    ['embeddings.position_embeddings', [1, 1 + b.pretrainedGrid ** 2, d]],
    ['embeddings.patch_embeddings.projection.weight', [d, 3, b.patch, b.patch]],
    ['embeddings.patch_embeddings.projection.bias', [d]],
  ]);
  if (b.registers === 0) s.delete('embeddings.register_tokens');
  for (let i = 0; i < b.layers; i++) {
    const p = `encoder.layer.${i}`;
    s.set(`${p}.norm1.weight`, [d]).set(`${p}.norm1.bias`, [d]);
    for (const n of ['query', 'key', 'value']) {
      s.set(`${p}.attention.attention.${n}.weight`, [d, d]).set(`${p}.attention.attention.${n}.bias`, [d]);
    }
    s.set(`${p}.attention.output.dense.weight`, [d, d]).set(`${p}.attention.output.dense.bias`, [d]);
    s.set(`${p}.layer_scale1.lambda1`, [d]).set(`${p}.norm2.weight`, [d]).set(`${p}.norm2.bias`, [d]);
    s.set(`${p}.mlp.fc1.weight`, [f, d]).set(`${p}.mlp.fc1.bias`, [f]);
    s.set(`${p}.mlp.fc2.weight`, [d, f]).set(`${p}.mlp.fc2.bias`, [d]);
    s.set(`${p}.layer_scale2.lambda1`, [d]);
  }
  s.set('layernorm.weight', [d]).set('layernorm.bias', [d]);
  return s;
}

/**
 * Creates the DINOv2 parameters (Hugging Face names and layouts, except the position embeddings,
 * held already interpolated to the input's `grid`). Returns the channel count it outputs.
 */
export function addDinov2Backbone(store: ParamStore, b: Dinov2, grid: number): number {
  // Weights from a file overwrite every tensor: skip drawing 86M random numbers for them.
  const random = !b.weights;
  for (const [name, shape] of dinov2TensorShapes(b)) {
    const isNorm = /(norm\d?|layernorm)\.weight$|lambda1$/.test(name);
    const isBias = name.endsWith('.bias');
    const s = name === 'embeddings.position_embeddings' ? [1, 1 + grid * grid, b.hidden] : shape;
    store.add(`backbone.${name}`, s, isNorm ? 'ones' : isBias || !random ? 'zeros' : { normal: 0.02 });
  }
  return b.hidden;
}

/**
 * Copies a Hugging Face checkpoint into the parameters, every tensor checked by name and shape;
 * the position embeddings are resized bicubically (as Hugging Face does) to the input's grid.
 * Returns the names it mapped.
 */
export function loadDinov2Weights(
  store: ParamStore,
  b: Dinov2,
  grid: number,
  tensors: Map<string, SafeTensor>,
  file: string,
): string[] {
  const op = `createReader: ${file}`;
  const byName = new Map<string, SafeTensor>();
  for (const [raw, t] of tensors) {
    const prefix = PREFIXES.find((p) => raw.startsWith(p));
    byName.set(prefix ? raw.slice(prefix.length) : raw, t);
  }
  const expected = dinov2TensorShapes(b);
  const mapped: string[] = [];
  for (const [name, shape] of expected) {
    const t = byName.get(name);
    if (!t)
      throw new Error(`${op}: tensor "${name}" is missing (a DINOv2-with-registers checkpoint expected).`);
    if (t.shape.length !== shape.length || t.shape.some((v, i) => v !== shape[i])) {
      throw new Error(`${op}: tensor "${name}" has shape [${t.shape}], expected [${shape}].`);
    }
    let data = t.data;
    let s = t.shape;
    if (name === 'embeddings.position_embeddings' && grid !== b.pretrainedGrid) {
      const d = b.hidden;
      const patches = resizeGridBicubic(data.subarray(d), b.pretrainedGrid, d, grid);
      data = new Float32Array(d + patches.length);
      data.set(t.data.subarray(0, d));
      data.set(patches, d);
      s = [1, 1 + grid * grid, d];
    }
    store.assign(`backbone.${name}`, s, data, op);
    mapped.push(name);
  }
  const extra = [...byName.keys()].filter((n) => !expected.has(n) && !UNUSED.has(n));
  if (extra.length > 0) {
    throw new Error(
      `${op}: tensor "${extra[0]}" is not part of DINOv2 with registers (${extra.length} unknown).`,
    );
  }
  return mapped;
}

function layerNorm(x: tf.Tensor, w: tf.Tensor, bias: tf.Tensor, eps: number): tf.Tensor {
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.add(tf.mul(tf.div(tf.sub(x, mean), tf.sqrt(tf.add(variance, eps))), w), bias);
}

/**
 * a [m, k] times b [k, n] as a 1x1 convolution: on the wasm backend XNNPACK's convolution is 5-20x
 * faster than its BatchMatMul, and its gradients use the registered convolution kernels.
 */
function matmul(a: tf.Tensor, b: tf.Tensor): tf.Tensor2D {
  const [m, k] = a.shape as [number, number];
  const n = b.shape[1]!;
  const y = tf.conv2d(
    tf.reshape(a, [1, 1, m, k]) as tf.Tensor4D,
    tf.reshape(b, [1, 1, k, n]) as tf.Tensor4D,
    1,
    'valid',
  );
  return tf.reshape(y, [m, n]) as tf.Tensor2D;
}

/** x [B, T, in] times a Hugging Face linear weight [out, in], plus bias. */
function linear(x: tf.Tensor3D, w: tf.Tensor, bias: tf.Tensor): tf.Tensor3D {
  const [n, t, c] = x.shape;
  const y = matmul(tf.reshape(x, [n * t, c]), tf.transpose(w));
  return tf.reshape(tf.add(y, bias), [n, t, w.shape[0]!]) as tf.Tensor3D;
}

/** Multi-head self-attention context for q, k, v [B, T, D]: per sample and head, softmax(q kT / sqrt(dh)) v. */
function attention(q: tf.Tensor3D, k: tf.Tensor3D, v: tf.Tensor3D, heads: number): tf.Tensor3D {
  const [n, t, d] = q.shape;
  const dh = d / heads;
  const samples: tf.Tensor[] = [];
  for (let s = 0; s < n; s++) {
    const parts: tf.Tensor[] = [];
    for (let h = 0; h < heads; h++) {
      const take = (x: tf.Tensor3D) => tf.reshape(tf.slice(x, [s, 0, h * dh], [1, t, dh]), [t, dh]);
      const scores = tf.mul(matmul(take(q), tf.transpose(take(k))), 1 / Math.sqrt(dh));
      parts.push(matmul(tf.softmax(scores), take(v)));
    }
    samples.push(tf.concat(parts, 1));
  }
  return tf.stack(samples) as tf.Tensor3D;
}

function gelu(x: tf.Tensor): tf.Tensor {
  return tf.mul(tf.mul(x, 0.5), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));
}

/** Runs DINOv2 on [B, N, N, 3] images in [0, 1]: patch tokens as a [B, N/14, N/14, hidden] grid. */
export function dinov2Backbone(store: ParamStore, b: Dinov2, images: tf.Tensor4D): tf.Tensor4D {
  const p = (name: string) => store.get(`backbone.${name}`);
  const [n, size] = images.shape;
  const g = size / b.patch;
  const d = b.hidden;
  const x = tf.div(tf.sub(images, tf.tensor1d(MEAN)), tf.tensor1d(STD)) as tf.Tensor4D;
  const proj = tf.transpose(p('embeddings.patch_embeddings.projection.weight'), [2, 3, 1, 0]) as tf.Tensor4D;
  const patches = tf.add(
    tf.conv2d(x, proj, b.patch, 'valid'),
    p('embeddings.patch_embeddings.projection.bias'),
  );
  const pos = p('embeddings.position_embeddings');
  const cls = tf.add(tf.slice(pos, [0, 0, 0], [1, 1, d]), p('embeddings.cls_token'));
  const body = tf.add(tf.reshape(patches, [n, g * g, d]), tf.slice(pos, [0, 1, 0], [1, g * g, d]));
  const parts = [tf.tile(cls, [n, 1, 1])];
  if (b.registers > 0) parts.push(tf.tile(p('embeddings.register_tokens'), [n, 1, 1]));
  parts.push(body);
  let h = tf.concat(parts, 1) as tf.Tensor3D;
  for (let i = 0; i < b.layers; i++) {
    const l = (name: string) => p(`encoder.layer.${i}.${name}`);
    // One tidy per layer keeps the forward's peak memory to one layer's intermediates (the wasm
    // heap is 4 GB); tensors saved for the backward pass are kept by the tape.
    const next = tf.tidy(() => {
      const a = layerNorm(h, l('norm1.weight'), l('norm1.bias'), b.layerNormEps) as tf.Tensor3D;
      const att = (k: string) =>
        linear(a, l(`attention.attention.${k}.weight`), l(`attention.attention.${k}.bias`));
      const ctx = attention(att('query'), att('key'), att('value'), b.heads);
      const o = linear(ctx, l('attention.output.dense.weight'), l('attention.output.dense.bias'));
      const h1 = tf.add(h, tf.mul(o, l('layer_scale1.lambda1'))) as tf.Tensor3D;
      const m = layerNorm(h1, l('norm2.weight'), l('norm2.bias'), b.layerNormEps) as tf.Tensor3D;
      const f = linear(
        gelu(linear(m, l('mlp.fc1.weight'), l('mlp.fc1.bias'))) as tf.Tensor3D,
        l('mlp.fc2.weight'),
        l('mlp.fc2.bias'),
      );
      return tf.add(h1, tf.mul(f, l('layer_scale2.lambda1'))) as tf.Tensor3D;
    });
    if (i > 0) h.dispose();
    h = next;
  }
  h = layerNorm(h, p('layernorm.weight'), p('layernorm.bias'), b.layerNormEps) as tf.Tensor3D;
  const first = 1 + b.registers;
  return tf.reshape(tf.slice(h, [0, first, 0], [n, g * g, d]), [n, g, g, d]) as tf.Tensor4D;
}

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

/** x [B, T, in] times a Hugging Face linear weight [out, in], plus bias. */
function linear(x: tf.Tensor3D, w: tf.Tensor, bias: tf.Tensor): tf.Tensor3D {
  const [n, t, c] = x.shape;
  const y = tf.matMul(tf.reshape(x, [n * t, c]) as tf.Tensor2D, w as tf.Tensor2D, false, true);
  return tf.reshape(tf.add(y, bias), [n, t, w.shape[0]!]) as tf.Tensor3D;
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
  const heads = b.heads;
  const dh = d / heads;
  const tokens = h.shape[1];
  const split = (t: tf.Tensor3D) => tf.transpose(tf.reshape(t, [n, tokens, heads, dh]), [0, 2, 1, 3]);
  for (let i = 0; i < b.layers; i++) {
    const l = (name: string) => p(`encoder.layer.${i}.${name}`);
    // One tidy per layer keeps the forward's peak memory to one layer's intermediates (the wasm
    // heap is 4 GB); tensors saved for the backward pass are kept by the tape.
    const next = tf.tidy(() => {
      const a = layerNorm(h, l('norm1.weight'), l('norm1.bias'), b.layerNormEps) as tf.Tensor3D;
      const att = (k: string) =>
        linear(a, l(`attention.attention.${k}.weight`), l(`attention.attention.${k}.bias`));
      const q = split(att('query'));
      const k = split(att('key'));
      const v = split(att('value'));
      const w = tf.softmax(tf.mul(tf.matMul(q, k, false, true), 1 / Math.sqrt(dh)));
      const ctx = tf.reshape(tf.transpose(tf.matMul(w, v), [0, 2, 1, 3]), [n, tokens, d]) as tf.Tensor3D;
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

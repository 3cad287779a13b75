import { type SeededRandom, seededRandom } from '@mocap/anim-loop';
import * as tf from '@tensorflow/tfjs-core';

/** How a parameter starts: He-normal for its fan-in, a normal of a given std, zeros or ones. */
export type ParamInit = { he: number } | { normal: number } | 'zeros' | 'ones';

/**
 * A model's named trainable parameters (tfjs variables), seeded. Names are the model's own
 * (`stage0.conv1.weight`, or Hugging Face names for DINOv2); tfjs's global variable names are left
 * to tfjs so that two models never collide.
 *
 * ```ts
 * const store = new ParamStore(0);
 * const w = store.add('conv.weight', [3, 3, 3, 16], { he: 27 });
 * store.dispose();
 * ```
 */
export class ParamStore {
  /** Parameters by name, in creation order. */
  readonly vars = new Map<string, tf.Variable>();
  private readonly rng: SeededRandom;

  constructor(seed: number) {
    this.rng = seededRandom(seed);
  }

  /** Creates a parameter; throws if the name exists. */
  add(name: string, shape: number[], init: ParamInit): tf.Variable {
    if (this.vars.has(name)) throw new Error(`ParamStore: parameter "${name}" exists already.`);
    const n = shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    if (init === 'ones') data.fill(1);
    else if (init !== 'zeros') {
      const std = 'he' in init ? Math.sqrt(2 / init.he) : init.normal;
      for (let i = 0; i < n; i++) data[i] = this.rng.normal() * std;
    }
    const v = tf.tidy(() => tf.variable(tf.tensor(data, shape), true));
    this.vars.set(name, v);
    return v;
  }

  /** The parameter called `name`; throws naming it if absent. */
  get(name: string): tf.Variable {
    const v = this.vars.get(name);
    if (!v) throw new Error(`ParamStore: no parameter "${name}".`);
    return v;
  }

  /** Replaces a parameter's value, checking its shape; `source` names the origin in errors. */
  assign(name: string, shape: number[], data: Float32Array, source: string): void {
    const v = this.vars.get(name);
    if (!v) throw new Error(`${source}: tensor "${name}" is not a parameter of this model.`);
    if (v.shape.length !== shape.length || v.shape.some((d, i) => d !== shape[i])) {
      throw new Error(`${source}: tensor "${name}" has shape [${shape}], expected [${v.shape}].`);
    }
    tf.tidy(() => v.assign(tf.tensor(data, shape)));
  }

  /** Number of scalar parameters. */
  count(): number {
    let n = 0;
    for (const v of this.vars.values()) n += v.size;
    return n;
  }

  /** Frees every parameter. */
  dispose(): void {
    for (const v of this.vars.values()) v.dispose();
    this.vars.clear();
  }
}

/** A 3x3 (or k x k) convolution with bias, NHWC, 'same' padding; creates its parameters. */
export function addConv(store: ParamStore, name: string, k: number, cin: number, cout: number): void {
  store.add(`${name}.weight`, [k, k, cin, cout], { he: k * k * cin });
  store.add(`${name}.bias`, [cout], 'zeros');
}

/** Applies a convolution made by {@link addConv}. */
export function conv(store: ParamStore, name: string, x: tf.Tensor4D, stride = 1): tf.Tensor4D {
  const w = store.get(`${name}.weight`) as tf.Tensor4D;
  return tf.add(tf.conv2d(x, w, stride, 'same'), store.get(`${name}.bias`));
}

import * as tf from '@tensorflow/tfjs-core';

/**
 * AdamW over named variables, its moments named after them (`m/<name>`, `v/<name>`) so a
 * checkpoint restores into a new process whatever tfjs called the variables.
 *
 * ```ts
 * const opt = new AdamW();
 * opt.step(vars, grads, 1e-3);
 * ```
 */
export class AdamW {
  /** Steps taken. */
  t = 0;
  private readonly m = new Map<string, tf.Tensor>();
  private readonly v = new Map<string, tf.Tensor>();

  constructor(
    readonly beta1 = 0.9,
    readonly beta2 = 0.999,
    readonly eps = 1e-8,
    readonly weightDecay = 0,
  ) {}

  /** One update of every variable that has a gradient; `lr(name)` gives each its learning rate. */
  step(vars: ReadonlyMap<string, tf.Variable>, grads: tf.NamedTensorMap, lr: (name: string) => number): void {
    this.t++;
    const c1 = 1 - this.beta1 ** this.t;
    const c2 = 1 - this.beta2 ** this.t;
    for (const [name, variable] of vars) {
      const g = grads[variable.name];
      if (!g) continue;
      const [m, v] = tf.tidy(() => {
        const m0 = this.m.get(name) ?? tf.zerosLike(variable);
        const v0 = this.v.get(name) ?? tf.zerosLike(variable);
        const m1 = tf.add(tf.mul(m0, this.beta1), tf.mul(g, 1 - this.beta1));
        const v1 = tf.add(tf.mul(v0, this.beta2), tf.mul(tf.square(g), 1 - this.beta2));
        const upd = tf.div(tf.div(m1, c1), tf.add(tf.sqrt(tf.div(v1, c2)), this.eps));
        const a = lr(name);
        const decayed = this.weightDecay > 0 ? tf.mul(variable, 1 - a * this.weightDecay) : variable;
        variable.assign(tf.sub(decayed, tf.mul(upd, a)));
        return [m1, v1];
      });
      this.m.get(name)?.dispose();
      this.v.get(name)?.dispose();
      this.m.set(name, m);
      this.v.set(name, v);
    }
  }

  /** The moments as named tensors (views of the optimizer's own; do not dispose). */
  state(): tf.NamedTensorMap {
    const out: tf.NamedTensorMap = {};
    for (const [k, t] of this.m) out[`m/${k}`] = t;
    for (const [k, t] of this.v) out[`v/${k}`] = t;
    return out;
  }

  /** Restores moments saved by {@link AdamW.state} (takes ownership of the tensors) and the step. */
  restore(state: tf.NamedTensorMap, t: number): void {
    this.dispose();
    this.t = t;
    for (const [k, tensor] of Object.entries(state)) {
      if (k.startsWith('m/')) this.m.set(k.slice(2), tensor);
      else if (k.startsWith('v/')) this.v.set(k.slice(2), tensor);
      else tensor.dispose();
    }
  }

  /** Frees the moments. */
  dispose(): void {
    for (const t of this.m.values()) t.dispose();
    for (const t of this.v.values()) t.dispose();
    this.m.clear();
    this.v.clear();
  }
}

import path from 'node:path';
import { readJsonFile } from '@mocap/layout';
import * as tf from '@tensorflow/tfjs-core';
import type { Reader } from './create-reader.js';
import type { ReaderConfigInput } from './reader-config.js';
import { loadReader, ReaderModelJson } from './reader-io.js';

/** What {@link initFromReader} carried over. */
export interface InitReport {
  /** The source reader's folder. */
  from: string;
  /** Parameters copied whole (everything but the per-joint output layer). */
  copied: number;
  /** Joints whose output channel came from the source reader's joint of the same name. */
  matched: string[];
  /** Joints with no same-named source joint whose channel came from the source joint `map` gave (joint -> source joint). */
  mapped: Record<string, string>;
  /** Joints the source reader has no channel for: they start from the fresh initialisation. */
  fresh: string[];
}

/** Options of {@link initFromReader}. */
export interface InitOptions {
  /**
   * For joints the source reader has no same-named joint for, a source joint to start from
   * (e.g. {@link restJointMap} of the two rigs); names not in the source are ignored.
   */
  map?: Record<string, string>;
}

/** The architecture of the reader saved in `dir` (its config without joints and seed), for a run that starts from it. */
export async function readerArchitecture(dir: string): Promise<Omit<ReaderConfigInput, 'joints' | 'seed'>> {
  const model = await readJsonFile('trainReader', path.join(dir, 'model.json'), ReaderModelJson);
  const { joints: _j, seed: _s, ...arch } = model.config;
  return arch;
}

/**
 * Starts `reader` from the trained reader in `dir` (fine-tuning): every parameter of the
 * shared architecture is copied, and each joint's output channel from the source joint of
 * the same name, else from the one `options.map` names; a joint left without keeps its fresh
 * weights, its bias set to the mean of the source's biases (so its heatmap starts as flat as
 * the others'). A source of another architecture is refused, naming what differs.
 *
 * ```ts
 * const reader = await createReader({ ...(await readerArchitecture('creatures/wolf/reader')), joints });
 * const report = await initFromReader(reader, 'creatures/wolf/reader');
 * ```
 */
export async function initFromReader(
  reader: Reader,
  dir: string,
  options: InitOptions = {},
): Promise<InitReport> {
  const file = path.join(dir, 'model.json');
  const { reader: src, model, extra } = await loadReader(dir);
  tf.dispose(Object.values(extra));
  try {
    const { joints: _a, seed: _b, ...want } = reader.config;
    const { joints: _c, seed: _d, ...have } = src.config;
    for (const key of Object.keys(want) as (keyof typeof want)[]) {
      if (JSON.stringify(want[key]) !== JSON.stringify(have[key])) {
        throw new Error(
          `trainReader: init ${file}: config.${key} is ${JSON.stringify(have[key])}, this run's is ${JSON.stringify(want[key])}; train with the source's architecture or without init.`,
        );
      }
    }
    let copied = 0;
    for (const name of reader.params.vars.keys()) {
      if (name.startsWith('head.out.')) continue;
      const s = src.params.get(name);
      reader.params.assign(name, s.shape, s.dataSync() as Float32Array, `trainReader: init ${file}`);
      copied++;
    }
    const joints = reader.config.joints;
    const srcIndex = new Map(model.joints.map((j, i) => [j, i]));
    const matched = joints.filter((j) => srcIndex.has(j));
    const mapped: Record<string, string> = {};
    for (const j of joints) {
      const to = options.map?.[j];
      if (!srcIndex.has(j) && to !== undefined && srcIndex.has(to)) mapped[j] = to;
    }
    const fresh = joints.filter((j) => !srcIndex.has(j) && mapped[j] === undefined);
    const w = reader.params.get('head.out.weight');
    const b = reader.params.get('head.out.bias');
    const sw = src.params.get('head.out.weight').dataSync() as Float32Array;
    const sb = src.params.get('head.out.bias').dataSync() as Float32Array;
    const wd = Float32Array.from(w.dataSync() as Float32Array);
    const bd = Float32Array.from(b.dataSync() as Float32Array);
    const cin = w.shape[2] as number;
    const jn = joints.length;
    const sj = model.joints.length;
    const meanBias = sb.reduce((a, x) => a + x, 0) / sj;
    joints.forEach((name, j) => {
      const k = srcIndex.get(name) ?? srcIndex.get(mapped[name] ?? '');
      if (k === undefined) {
        bd[j] = meanBias;
        return;
      }
      // head.out.weight is [1, 1, cin, joints]: channel j of input c at c * joints + j.
      for (let c = 0; c < cin; c++) wd[c * jn + j] = sw[c * sj + k] as number;
      bd[j] = sb[k] as number;
    });
    reader.params.assign('head.out.weight', w.shape, wd, `trainReader: init ${file}`);
    reader.params.assign('head.out.bias', b.shape, bd, `trainReader: init ${file}`);
    return { from: dir, copied, matched, mapped, fresh };
  } finally {
    src.dispose();
  }
}

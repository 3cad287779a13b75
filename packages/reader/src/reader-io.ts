import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite, atomicWriteJson, readJsonFile } from '@mocap/layout';
import * as tf from '@tensorflow/tfjs-core';
import { z } from 'zod';
import { createReader, type Reader } from './create-reader.js';
import { ReaderConfig } from './reader-config.js';
import { ReaderErrors } from './reader-errors.js';

/** One weight's entry in a tfjs weights manifest. */
const WeightSpec = z.object({
  name: z.string(),
  shape: z.array(z.number().int().min(0)),
  dtype: z.literal('float32'),
});

/**
 * `model.json` of a saved reader: tfjs's weights-manifest layout (`weightsManifest` pointing at
 * `weights.bin`) plus the reader's config, joint names, held-out error and training record.
 */
export const ReaderModelJson = z
  .object({
    format: z.literal('mocap-reader'),
    version: z.literal(1),
    config: ReaderConfig,
    /** Joint names, one heatmap each (the same as config.joints). */
    joints: z.array(z.string()),
    heldOut: ReaderErrors.optional(),
    /** Free-form record of how it was trained (steps, loss, backend, seconds, command). */
    training: z.record(z.string(), z.unknown()).optional(),
    weightsManifest: z
      .array(z.object({ paths: z.array(z.string()).min(1), weights: z.array(WeightSpec) }))
      .length(1),
  })
  .strict();
/** A saved reader's `model.json`. */
export type ReaderModelJson = z.output<typeof ReaderModelJson>;

/** Extra fields {@link saveReader} writes into model.json. */
export interface SaveReaderExtra {
  heldOut?: ReaderErrors;
  training?: Record<string, unknown>;
  /** More named tensors to store beside the parameters (e.g. optimizer state). */
  extraTensors?: Record<string, tf.Tensor>;
}

/**
 * Saves a reader as `dir/model.json` + `dir/weights.bin` (tfjs weights format), atomically.
 *
 * ```ts
 * await saveReader(reader, 'runs/wolf/reader', { heldOut });
 * ```
 */
export async function saveReader(reader: Reader, dir: string, extra: SaveReaderExtra = {}): Promise<void> {
  const named: tf.NamedTensorMap = {};
  for (const [name, v] of reader.params.vars) named[name] = v;
  for (const [name, t] of Object.entries(extra.extraTensors ?? {})) named[name] = t;
  const { data, specs } = await tf.io.encodeWeights(named);
  const config = structuredClone(reader.config);
  if (config.backbone.kind === 'dinov2') delete config.backbone.weights;
  const json: ReaderModelJson = {
    format: 'mocap-reader',
    version: 1,
    config,
    joints: config.joints,
    ...(extra.heldOut ? { heldOut: extra.heldOut } : {}),
    ...(extra.training ? { training: extra.training } : {}),
    weightsManifest: [
      {
        paths: ['weights.bin'],
        weights: specs.map((s) => ({ name: s.name, shape: s.shape, dtype: 'float32' as const })),
      },
    ],
  };
  await atomicWrite(path.join(dir, 'weights.bin'), new Uint8Array(data));
  await atomicWriteJson(path.join(dir, 'model.json'), json);
}

/** Options of {@link loadReader}. */
export interface LoadReaderOptions {
  /** The joint names the caller needs, in order; a reader trained for others is an error. */
  joints?: readonly string[];
}

/** A loaded reader with its model.json and any extra tensors saved beside the parameters. */
export interface LoadedReader {
  reader: Reader;
  model: ReaderModelJson;
  /** Tensors in weights.bin that are not parameters (caller disposes). */
  extra: tf.NamedTensorMap;
}

/**
 * Loads a reader saved by {@link saveReader}, checking every parameter's name and shape.
 *
 * ```ts
 * const { reader, model } = await loadReader('runs/wolf/reader', { joints: rig.names });
 * ```
 */
export async function loadReader(dir: string, options: LoadReaderOptions = {}): Promise<LoadedReader> {
  const op = 'loadReader';
  const file = path.join(dir, 'model.json');
  const model = await readJsonFile(op, file, ReaderModelJson);
  if (options.joints && options.joints.join('\n') !== model.joints.join('\n')) {
    throw new Error(
      `${op}: ${file}: joints: this reader was trained for ${JSON.stringify(model.joints)}, the creature has ${JSON.stringify(options.joints)}.`,
    );
  }
  const manifest = model.weightsManifest[0]!;
  const bin = path.join(dir, manifest.paths[0]!);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(bin);
  } catch (err) {
    throw new Error(`${op}: ${bin}: cannot read (${(err as Error).message}).`, { cause: err });
  }
  const expected = manifest.weights.reduce((a, w) => a + 4 * w.shape.reduce((x, y) => x * y, 1), 0);
  if (bytes.length !== expected) {
    throw new Error(`${op}: ${bin}: ${bytes.length} bytes, the manifest wants ${expected}.`);
  }
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const tensors = tf.io.decodeWeights(buffer, manifest.weights);
  const reader = await createReader(model.config);
  const extra: tf.NamedTensorMap = {};
  try {
    for (const name of reader.params.vars.keys()) {
      if (!tensors[name]) throw new Error(`${op}: ${bin}: parameter "${name}" is missing.`);
    }
    for (const [name, t] of Object.entries(tensors)) {
      if (reader.params.vars.has(name)) {
        reader.params.assign(name, t.shape, t.dataSync() as Float32Array, `${op}: ${bin}`);
        t.dispose();
      } else extra[name] = t;
    }
  } catch (err) {
    reader.dispose();
    tf.dispose(Object.values(tensors));
    throw err;
  }
  return { reader, model, extra };
}

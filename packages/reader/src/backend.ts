import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
// tfjs-core's Node bundle registers no gradient functions; tfjs-layers' bundle registers all of
// core's into the shared global registry (as the @tensorflow/tfjs union package relies on).
import '@tensorflow/tfjs-layers';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { z } from 'zod';
import { registerWasmGradients } from './wasm-gradients.js';

/** The backends the reader can run on, fastest first. */
export const BackendChoice = z.enum(['tfjs-node-gpu', 'tfjs-node', 'wasm', 'cpu']);
/** One of the reader's backends. */
export type BackendChoice = z.infer<typeof BackendChoice>;

/** Options of {@link initBackend}. */
export const InitBackendOptions = z
  .object({
    /**
     * The backends to try, in order; the first that loads wins.
     * @default ['tfjs-node-gpu', 'tfjs-node', 'wasm', 'cpu']
     */
    order: z.array(BackendChoice).min(1).default(['tfjs-node-gpu', 'tfjs-node', 'wasm', 'cpu']),
  })
  .strict();
/** Options of {@link initBackend} as written by a caller. */
export type InitBackendOptions = z.input<typeof InitBackendOptions>;

/** Which backend runs, and why the ones before it did not. */
export interface BackendReport {
  /** The backend chosen. */
  choice: BackendChoice;
  /** tfjs's name of the active backend (`tensorflow`, `wasm`, `cpu`). */
  backend: string;
  /** Each backend tried before it, with the reason it did not load. */
  skipped: { choice: BackendChoice; reason: string }[];
}

const require = createRequire(import.meta.url);

/** The folder holding tfjs-backend-wasm's `.wasm` binaries, resolved from node_modules. */
export function wasmBinaryDir(): string {
  return path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + path.sep;
}

async function tryNode(pkg: string): Promise<string> {
  // A variable specifier keeps bundlers and the type checker from requiring the package.
  const name = pkg;
  await import(name);
  if (!(await tf.setBackend('tensorflow'))) throw new Error(`${pkg} loaded but its backend did not start`);
  return 'tensorflow';
}

async function tryOne(choice: BackendChoice): Promise<string> {
  switch (choice) {
    case 'tfjs-node-gpu':
      return tryNode('@tensorflow/tfjs-node-gpu');
    case 'tfjs-node':
      return tryNode('@tensorflow/tfjs-node');
    case 'wasm':
      setWasmPaths(wasmBinaryDir());
      if (!(await tf.setBackend('wasm'))) throw new Error('the wasm backend did not start');
      registerWasmGradients();
      return 'wasm';
    case 'cpu':
      if (!(await tf.setBackend('cpu'))) throw new Error('the cpu backend did not start');
      return 'cpu';
  }
}

let current: BackendReport | undefined;

/**
 * Starts the fastest tfjs backend that loads here: `@tensorflow/tfjs-node-gpu`, then
 * `@tensorflow/tfjs-node` (both optional, imported only if installed), then wasm (with the
 * gradient kernels it lacks registered, see {@link registerWasmGradients}), then the pure-JS cpu
 * backend. Calling it again with the same order returns the same report.
 *
 * ```ts
 * const { choice } = await initBackend(); // 'wasm' on a machine without tfjs-node
 * ```
 */
export async function initBackend(options: InitBackendOptions = {}): Promise<BackendReport> {
  const { order } = InitBackendOptions.parse(options);
  if (current && order.includes(current.choice) && tf.getBackend() === current.backend) {
    const before = order.slice(0, order.indexOf(current.choice));
    if (before.every((c) => current?.skipped.some((s) => s.choice === c))) return current;
  }
  if (!tf.getGradient('Conv2D')) {
    throw new Error(
      'initBackend: tfjs gradient functions are not registered (@tensorflow/tfjs-layers missing?).',
    );
  }
  const skipped: BackendReport['skipped'] = [];
  for (const choice of order) {
    try {
      const backend = await tryOne(choice);
      current = { choice, backend, skipped };
      return current;
    } catch (err) {
      skipped.push({ choice, reason: err instanceof Error ? err.message.split('\n')[0]! : String(err) });
    }
  }
  throw new Error(
    `initBackend: no tfjs backend loaded (${skipped.map((s) => `${s.choice}: ${s.reason}`).join('; ')}).`,
  );
}

/** The report of the last successful {@link initBackend}, if any. */
export function backendReport(): BackendReport | undefined {
  return current;
}

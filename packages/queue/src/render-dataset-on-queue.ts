import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { creaturePaths, DatasetMeta, parseFileData } from '@mocap/layout';
import type { DatasetShardJob, JobResult } from './queue-job.js';
import { type SubmitOptions, submitJobs } from './submit-jobs.js';

/** Options of {@link renderDatasetOnQueue}: renderDataset's, split into `shards` jobs. */
export interface RenderDatasetOnQueueOptions extends SubmitOptions {
  creature: string;
  count: number;
  /** Jobs the dataset is split into (shard k renders samples i with i % shards == k). */
  shards: number;
  /** @default 0 */
  seed?: number | undefined;
  /** @default `<creature>/runs/dataset` */
  out?: string | undefined;
  aa?: string | undefined;
  transparent?: boolean | undefined;
  /** Fraction of each bone's limit range used. */
  spread?: number | undefined;
}

/** What {@link renderDatasetOnQueue} returns. */
export interface RenderDatasetOnQueueResult {
  dir: string;
  /** Meta files of every sample 0..count-1, in order, each checked. */
  metas: string[];
  /** Each shard's result: the worker that finished it, samples rendered and found. */
  shards: JobResult[];
}

/**
 * `mocap dataset --queue URL --shards N` as a function: the dataset as `shards` jobs on the queue
 * (see renderDataset's `shard`), run by workers that see the same paths (a shared file system);
 * resolves once every shard is done, with the same files and bytes a local run writes.
 *
 * ```ts
 * const r = await renderDatasetOnQueue({ url: 'redis://queue-host:6379', creature: '/data/wolf', count: 2000, shards: 8 });
 * ```
 */
export async function renderDatasetOnQueue(
  opts: RenderDatasetOnQueueOptions,
): Promise<RenderDatasetOnQueueResult> {
  for (const [name, v, min] of [
    ['count', opts.count, 1],
    ['shards', opts.shards, 1],
  ] as const) {
    if (!Number.isInteger(v) || v < min) {
      throw new TypeError(`renderDatasetOnQueue: expected ${name} to be a positive integer, got ${v}.`);
    }
  }
  const creature = path.resolve(opts.creature);
  const out = path.resolve(opts.out ?? creaturePaths(creature).dataset);
  const jobs: Omit<DatasetShardJob, 'version'>[] = Array.from({ length: opts.shards }, (_, index) => ({
    kind: 'dataset-shard',
    creature,
    out,
    count: opts.count,
    seed: opts.seed ?? 0,
    shard: { index, of: opts.shards },
    ...(opts.aa !== undefined ? { aa: opts.aa } : {}),
    ...(opts.transparent !== undefined ? { transparent: opts.transparent } : {}),
    ...(opts.spread !== undefined ? { spread: opts.spread } : {}),
  }));
  const shards = await submitJobs('dataset', jobs, opts);
  const metas: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const file = path.join(out, `${String(i).padStart(5, '0')}_meta.json`);
    parseFileData('dataset', file, JSON.parse(await readFile(file, 'utf8')), DatasetMeta);
    metas.push(file);
  }
  return { dir: out, metas, shards };
}

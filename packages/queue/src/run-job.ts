import { existsSync } from 'node:fs';
import { renderDataset } from '@mocap/blender-bridge';
import { withOutputLock } from '@mocap/layout';
import { captureClip, renderExam } from '@mocap/pipeline';
import type { JobProgress, JobResult, QueueJob } from './queue-job.js';

/** Options of {@link runJob}. */
export interface RunJobOptions {
  /** `<host>:<pid>`, reported in progress and the result. */
  worker: string;
  /** How long to wait for another run holding the job's output (a job delivered twice), ms. */
  lockWaitMs: number;
  onProgress: (p: JobProgress) => void;
  signal?: AbortSignal | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

function requireShared(op: string, what: string, file: string): void {
  if (!existsSync(file)) {
    throw new Error(
      `${op}: ${what} ${file} does not exist on this worker: inputs and outputs reach workers through a shared file system at the same absolute paths (docs/scale.md).`,
    );
  }
}

/**
 * Runs one job on this machine, as a local run would: a dataset shard through renderDataset (its
 * shard lock, waited for up to `lockWaitMs`), a clip through captureClip (its folder lock taken
 * first with the same wait; captureClip takes it again, re-entrant), an exam seed through renderExam
 * (likewise). Both resume from what is
 * already written and write atomically, so a job delivered twice or retried after a kill redoes
 * only what is missing.
 */
export async function runJob(job: QueueJob, opts: RunJobOptions): Promise<JobResult> {
  const { worker } = opts;
  if (job.kind === 'dataset-shard') {
    requireShared('worker', 'creature folder', job.creature);
    const r = await renderDataset({
      creature: job.creature,
      out: job.out,
      count: job.count,
      seed: job.seed,
      shard: job.shard,
      waitMs: opts.lockWaitMs,
      ...(job.aa !== undefined ? { aa: job.aa } : {}),
      ...(job.transparent !== undefined ? { transparent: job.transparent } : {}),
      ...(job.spread !== undefined ? { pose: { spread: job.spread } } : {}),
      signal: opts.signal,
      ...(opts.env ? { env: opts.env } : {}),
      onProgress: (p) => opts.onProgress({ worker, stage: p.stage, done: p.done, total: p.total }),
    });
    return { worker, dir: r.dir, rendered: r.rendered, skipped: r.skipped };
  }
  if (job.kind === 'exam') {
    requireShared('worker', 'creature folder', job.creature);
    const { kind: _k, version: _v, fps, ...exam } = job;
    const r = await withOutputLock(
      job.out,
      { operation: 'exam', waitMs: opts.lockWaitMs, signal: opts.signal },
      () =>
        renderExam({
          ...exam,
          ...(fps !== undefined ? { fps } : {}),
          signal: opts.signal,
          env: opts.env,
          onStage: (stage, detail) => {
            const d =
              detail &&
              detail.phase !== 'calib' &&
              detail.phase !== 'views' &&
              detail.phase !== 'zoom' &&
              detail.phase !== 'noise'
                ? detail
                : { done: 0, total: 0 };
            opts.onProgress({ worker, stage: detail?.phase ?? stage, done: d.done, total: d.total });
          },
        }),
    );
    return { worker, dir: job.out, rendered: 1, skipped: 0, errorCm: r.error_cm.mean };
  }
  requireShared('worker', 'clip', job.clip);
  requireShared('worker', 'creature folder', job.creature);
  const { kind: _k, version: _v, ...capture } = job;
  const r = await withOutputLock(
    job.out,
    { operation: 'capture', waitMs: opts.lockWaitMs, signal: opts.signal },
    () =>
      captureClip({ ...capture, signal: opts.signal, env: opts.env }, (e) => {
        if (e.stage === 'detect') {
          if (
            e.detect.phase === 'calib' ||
            e.detect.phase === 'views' ||
            e.detect.phase === 'zoom' ||
            e.detect.phase === 'noise'
          )
            return;
          opts.onProgress({ worker, stage: e.detect.phase, done: e.detect.done, total: e.detect.total });
        } else if (e.stage === 'apply' && e.blender) {
          opts.onProgress({ worker, stage: 'apply', done: e.blender.done, total: e.blender.total });
        } else opts.onProgress({ worker, stage: e.stage, done: 0, total: 0 });
      }),
  );
  return { worker, dir: r.dir, rendered: 1, skipped: 0 };
}

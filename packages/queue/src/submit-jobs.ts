import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Job, Queue } from 'bullmq';
import { cancelJobs } from './cancel-jobs.js';
import { codeVersion } from './code-version.js';
import { connectRedis, redactUrl } from './connect-redis.js';
import { describeJob, type JobProgress, type JobResult, QUEUE_NAME, type QueueJob } from './queue-job.js';

/** What a submitter reports while its jobs run. */
export type SubmitEvent =
  | { kind: 'queued'; id: string; job: string }
  | { kind: 'progress'; id: string; job: string; progress: JobProgress }
  | { kind: 'completed'; id: string; job: string; result: JobResult };

/** Options every `...OnQueue` function takes. */
export interface SubmitOptions {
  /** The queue's Redis, `redis://[:password@]host[:port][/db]`. */
  url: string;
  /** Stamped on each job; workers running another version refuse it. @default codeVersion() */
  version?: string | undefined;
  /** Aborting it cancels the jobs (waiting ones removed, running ones stopped) and rejects. */
  signal?: AbortSignal | undefined;
  onEvent?: ((e: SubmitEvent) => void) | undefined;
  /** How often the jobs' states are read, ms. @default 500 */
  pollMs?: number | undefined;
}

/** A job failed on a worker; the submitter's run fails with its error. */
export class QueueJobError extends Error {
  override name = 'QueueJobError';
  constructor(
    message: string,
    /** The job's id in the queue. */
    readonly jobId: string,
  ) {
    super(message);
  }
}

/**
 * Enqueues `jobs` (each stamped with the code version) and waits for all of them: resolves with
 * their results in order; the first failure cancels the rest and rejects with a
 * {@link QueueJobError} carrying the worker's message; an abort cancels them all.
 */
export async function submitJobs(
  op: string,
  jobs: readonly Omit<QueueJob, 'version'>[],
  opts: SubmitOptions,
): Promise<JobResult[]> {
  const connection = await connectRedis(opts.url, { operation: op });
  const queue = new Queue(QUEUE_NAME, { connection });
  const version = opts.version ?? codeVersion();
  const batch = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const emit = opts.onEvent ?? (() => {});
  const data = jobs.map((j) => ({ ...j, version }) as QueueJob);
  const ids = data.map((_, i) => `${batch}-${i}`);
  try {
    await queue.addBulk(
      data.map((d, i) => ({
        name: d.kind,
        data: d,
        opts: {
          jobId: ids[i] as string,
          attempts: 1,
          removeOnComplete: { age: 3600 },
          removeOnFail: { age: 7 * 86400 },
        },
      })),
    );
    for (const [i, d] of data.entries()) emit({ kind: 'queued', id: ids[i] as string, job: describeJob(d) });
    const results = new Array<JobResult | undefined>(data.length);
    const progress = new Map<string, string>();
    let left = data.length;
    while (left > 0) {
      if (opts.signal?.aborted) {
        const c = await cancelJobs(queue, connection, ids);
        throw new Error(
          `${op}: cancelled: ${c.removed} queued jobs removed, ${c.stopped} running jobs told to stop.`,
          { cause: opts.signal.reason },
        );
      }
      for (const [i, id] of ids.entries()) {
        if (results[i]) continue;
        const what = describeJob(data[i] as QueueJob);
        // The state first, then the job: a job read before its state changed lacks its result or error.
        const state = await queue.getJobState(id);
        const job: Job | undefined = await queue.getJob(id);
        if (!job || state === 'unknown') {
          await cancelJobs(queue, connection, ids);
          throw new QueueJobError(
            `${op}: ${what}: job ${id} was removed from the queue ${redactUrl(opts.url)}.`,
            id,
          );
        }
        if (state === 'failed') {
          await cancelJobs(queue, connection, ids);
          throw new QueueJobError(`${op}: ${what} failed (job ${id}): ${job.failedReason}`, id);
        }
        if (state === 'completed') {
          results[i] = job.returnvalue as JobResult;
          left--;
          emit({ kind: 'completed', id, job: what, result: job.returnvalue as JobResult });
          continue;
        }
        const p = job.progress;
        const key = JSON.stringify(p);
        if (p && typeof p === 'object' && progress.get(id) !== key) {
          progress.set(id, key);
          emit({ kind: 'progress', id, job: what, progress: p as JobProgress });
        }
      }
      if (left > 0) await sleep(opts.pollMs ?? 500);
    }
    return results as JobResult[];
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

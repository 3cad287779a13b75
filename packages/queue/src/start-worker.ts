import { hostname } from 'node:os';
import { UnrecoverableError, Worker } from 'bullmq';
import { CANCEL_CHANNEL } from './cancel-jobs.js';
import { codeVersion } from './code-version.js';
import { connectRedis, redactUrl } from './connect-redis.js';
import { describeJob, type JobProgress, type JobResult, QUEUE_NAME, QueueJob } from './queue-job.js';
import { runJob } from './run-job.js';

/** What a worker reports: a job taken, its progress, its end. */
export type WorkerEvent =
  | { kind: 'active'; id: string; job: string }
  | { kind: 'progress'; id: string; job: string; progress: JobProgress }
  | { kind: 'completed'; id: string; job: string; result: JobResult }
  | { kind: 'failed'; id: string; job: string; error: string }
  /** The connection to Redis failed (the client retries; jobs wait meanwhile). */
  | { kind: 'error'; error: string };

/** Options of {@link startWorker}. */
export interface StartWorkerOptions {
  /** The queue's Redis, `redis://[:password@]host[:port][/db]`. */
  url: string;
  /** Jobs run at once by this worker. @default 1 */
  concurrency?: number | undefined;
  /** The code version this worker runs; jobs stamped with another are refused. @default codeVersion() */
  version?: string | undefined;
  /**
   * How long a job's lock lasts without renewal, ms: a worker that dies (SIGKILL, a machine lost)
   * stops renewing, and after this its job is stalled and goes back to the queue. @default 30000
   */
  lockDurationMs?: number | undefined;
  /** How often this worker looks for stalled jobs, ms. @default lockDurationMs */
  stalledIntervalMs?: number | undefined;
  /** How long a job waits for another run writing its output (a job delivered twice), ms. @default 600000 */
  lockWaitMs?: number | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  onEvent?: ((e: WorkerEvent) => void) | undefined;
}

/** A running worker. */
export interface QueueWorker {
  /** `<host>:<pid>`. */
  readonly name: string;
  readonly version: string;
  /** Stops taking jobs, waits for the running ones, disconnects. */
  close(): Promise<void>;
}

/**
 * `mocap worker` as a function: takes jobs from the queue at `url` and runs them on this machine
 * (dataset shards through renderDataset, clips through captureClip), reading and writing the same
 * absolute paths as the submitter (a shared file system). Fails fast with a clear error when Redis
 * is down or refuses us. A job from another code version fails with a message naming both
 * versions; a job cancelled by its submitter is aborted (Blender killed, nothing half-written).
 *
 * ```ts
 * const w = await startWorker({ url: 'redis://queue-host:6379', concurrency: 2 });
 * process.on('SIGTERM', () => w.close());
 * ```
 */
export async function startWorker(opts: StartWorkerOptions): Promise<QueueWorker> {
  const concurrency = opts.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`startWorker: expected concurrency to be a positive integer, got ${concurrency}.`);
  }
  const name = `${hostname()}:${process.pid}`;
  const emit = opts.onEvent ?? (() => {});
  const lockDuration = opts.lockDurationMs ?? 30_000;
  const connection = await connectRedis(opts.url, {
    operation: 'worker',
    onError: (err) => emit({ kind: 'error', error: err.message }),
  });
  const version = opts.version ?? codeVersion();
  const worker = new Worker<unknown, JobResult>(
    QUEUE_NAME,
    async (job, _token, signal) => {
      const id = String(job.id);
      const parsed = QueueJob.safeParse(job.data);
      if (!parsed.success) {
        throw new UnrecoverableError(`worker ${name}: job ${id} is not a mocap job: ${parsed.error.message}`);
      }
      const data = parsed.data;
      const what = describeJob(data);
      if (data.version !== version) {
        throw new UnrecoverableError(
          `worker ${name}: job ${id} (${what}) was submitted by code version ${data.version}; this worker runs ${version}. Run the submitter and every worker from the same build.`,
        );
      }
      emit({ kind: 'active', id, job: what });
      return runJob(data, {
        worker: name,
        lockWaitMs: opts.lockWaitMs ?? 600_000,
        signal,
        env: opts.env,
        onProgress: (progress) => {
          emit({ kind: 'progress', id, job: what, progress });
          job.updateProgress({ ...progress }).catch(() => {});
        },
      });
    },
    {
      connection,
      concurrency,
      name,
      lockDuration,
      stalledInterval: opts.stalledIntervalMs ?? lockDuration,
      // A job recovered from two stalls fails at a third instead of going round forever.
      maxStalledCount: 2,
    },
  );
  worker.on('completed', (job, result) =>
    emit({ kind: 'completed', id: String(job.id), job: describeOf(job.data), result }),
  );
  worker.on('failed', (job, err) => {
    if (job) emit({ kind: 'failed', id: String(job.id), job: describeOf(job.data), error: err.message });
  });
  worker.on('error', () => {});
  // Cancellations come on a channel: the submitter cannot reach a job another process runs.
  const sub = connection.duplicate();
  sub.on('error', () => {});
  await sub.subscribe(CANCEL_CHANNEL);
  sub.on('message', (_channel, id: string) => {
    worker.cancelJob(id, `cancelled by its submitter (queue ${redactUrl(opts.url)})`);
  });
  await worker.waitUntilReady();
  return {
    name,
    version,
    async close() {
      await worker.close();
      sub.disconnect();
      connection.disconnect();
    },
  };
}

function describeOf(data: unknown): string {
  const parsed = QueueJob.safeParse(data);
  return parsed.success ? describeJob(parsed.data) : 'not a mocap job';
}

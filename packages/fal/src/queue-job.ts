import { rename } from 'node:fs/promises';
import type { FalClient, QueueStatus } from '@fal-ai/client';
import { FalError } from './fal-error.js';
import { type JobState, readJobState, writeJobState } from './job-state.js';

/** A progress event of {@link runQueueJob}. */
export interface JobUpdate {
  kind: 'submitted' | 'resumed' | 'status' | 'cancelling';
  requestId: string;
  /** IN_QUEUE, IN_PROGRESS or COMPLETED for `status` events. */
  status?: QueueStatus['status'];
  queuePosition?: number;
  /** New log lines since the last update. */
  logs?: string[];
  /** Milliseconds since this run started waiting. */
  elapsedMs: number;
  /** The job state file (where the request id is recorded). */
  stateFile: string;
}

/** Options of {@link runQueueJob}. */
export interface QueueJobOptions {
  client: FalClient;
  /** The model id, e.g. `fal-ai/wan/v2.2-a14b/image-to-video`. */
  endpoint: string;
  input: Record<string, unknown>;
  /** Where the job state lives (written atomically as soon as fal accepts the job). */
  stateFile: string;
  /** Between status polls, ms. @default 2000 */
  pollIntervalMs?: number;
  /** Longest wait for completion in this run, ms; then fal is asked to cancel. @default 1_800_000 */
  timeoutMs?: number;
  /** Abort (Ctrl-C): fal is asked to cancel the job, then the run rejects. */
  signal?: AbortSignal;
  onUpdate?: (u: JobUpdate) => void;
  /** Operation name for messages. @default 'fal' */
  op?: string;
}

/** What {@link runQueueJob} resolves to. */
export interface QueueJobResult {
  requestId: string;
  /** The job's output payload. */
  data: unknown;
  /** True when an earlier run's job was picked up instead of submitting. */
  resumed: boolean;
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

async function requestCancel(opts: QueueJobOptions, requestId: string, state: JobState): Promise<string> {
  await writeJobState(opts.stateFile, { ...state, phase: 'cancel_requested' });
  try {
    await opts.client.queue.cancel(opts.endpoint, { requestId, abortSignal: AbortSignal.timeout(15_000) });
    return 'fal was asked to cancel it';
  } catch (err) {
    return `asking fal to cancel it failed (${(err as Error).message.split('\n')[0]})`;
  }
}

/**
 * Runs one job on fal's queue, resumably: submit (or pick up the request id an earlier run
 * recorded in `stateFile`), poll status with progress, fetch the result. The state file is
 * written atomically the moment fal accepts the job, so a killed process resumes the same
 * paid job instead of submitting a new one. A timeout or an abort asks fal to cancel.
 *
 * ```ts
 * const { data } = await runQueueJob({ client, endpoint, input, stateFile: 'clip.job.json' });
 * ```
 */
export async function runQueueJob(opts: QueueJobOptions): Promise<QueueJobResult> {
  const op = opts.op ?? 'fal';
  const signal = opts.signal ?? new AbortController().signal;
  const timeoutMs = opts.timeoutMs ?? 1_800_000;
  const pollMs = opts.pollIntervalMs ?? 2000;
  const started = Date.now();
  const prior = await readJobState(op, opts.stateFile);
  let state: JobState = prior ?? {
    endpoint: opts.endpoint,
    request_id: null,
    input: opts.input,
    uploads: {},
    phase: 'prepared',
    submitted_at: null,
    updated_at: new Date().toISOString(),
  };
  let requestId = '';
  let resumed = false;
  if (prior?.request_id) {
    if (prior.endpoint !== opts.endpoint || stable(prior.input) !== stable(opts.input)) {
      throw new Error(
        `${op}: ${opts.stateFile}: holds request ${prior.request_id} for a different request (endpoint ${prior.endpoint}); ` +
          'run again with the same options to resume it, or delete that file to submit a new job.',
      );
    }
    if (prior.phase === 'completed' && prior.result !== undefined)
      return { requestId: prior.request_id, data: prior.result, resumed: true };
    requestId = prior.request_id;
    resumed = true;
    opts.onUpdate?.({ kind: 'resumed', requestId, elapsedMs: 0, stateFile: opts.stateFile });
  } else {
    if (signal.aborted) throw signal.reason;
    const accepted = await opts.client.queue.submit(opts.endpoint, {
      input: opts.input,
      abortSignal: signal,
    });
    requestId = accepted.request_id;
    state = await writeJobState(opts.stateFile, {
      ...state,
      endpoint: opts.endpoint,
      input: opts.input,
      request_id: requestId,
      phase: 'submitted',
      submitted_at: new Date().toISOString(),
    });
    opts.onUpdate?.({ kind: 'submitted', requestId, elapsedMs: 0, stateFile: opts.stateFile });
  }

  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(new Error('timeout')), timeoutMs);
  const both = AbortSignal.any([signal, timer.signal]);
  let seenLogs = 0;
  try {
    for (;;) {
      let st: QueueStatus;
      try {
        st = await opts.client.queue.status(opts.endpoint, { requestId, logs: true, abortSignal: both });
      } catch (err) {
        if (err instanceof FalError && err.status === 404 && resumed) {
          throw new FalError(
            `${op}: request ${requestId} recorded in ${opts.stateFile} is unknown to fal (expired or never accepted); delete that file to submit a new job.`,
            404,
            err.detail,
            requestId,
            { cause: err },
          );
        }
        throw err;
      }
      const logs = 'logs' in st && Array.isArray(st.logs) ? st.logs.map((l) => l.message) : [];
      const fresh = logs.slice(seenLogs);
      seenLogs = Math.max(seenLogs, logs.length);
      opts.onUpdate?.({
        kind: 'status',
        requestId,
        status: st.status,
        ...(st.status === 'IN_QUEUE' ? { queuePosition: st.queue_position } : {}),
        logs: fresh,
        elapsedMs: Date.now() - started,
        stateFile: opts.stateFile,
      });
      if (st.status === 'COMPLETED') break;
      await wait(pollMs, both);
    }
  } catch (err) {
    if (both.aborted) {
      opts.onUpdate?.({
        kind: 'cancelling',
        requestId,
        elapsedMs: Date.now() - started,
        stateFile: opts.stateFile,
      });
      const how = await requestCancel(opts, requestId, state);
      const why = timer.signal.aborted
        ? `timed out after ${(timeoutMs / 1000).toFixed(1)} s waiting for request ${requestId}`
        : `interrupted while waiting for request ${requestId}`;
      throw new FalError(`${op}: ${why}; ${how}. State kept in ${opts.stateFile}.`, 0, '', requestId, {
        cause: err,
      });
    }
    throw err;
  } finally {
    clearTimeout(timeout);
  }

  let data: unknown;
  try {
    ({ data } = await opts.client.queue.result(opts.endpoint, { requestId, abortSignal: signal }));
  } catch (err) {
    if (err instanceof FalError && err.status >= 400) {
      const failed = opts.stateFile.replace(/\.json$/, '') + `.failed-${requestId}.json`;
      await rename(opts.stateFile, failed).catch(() => {});
      if (state.phase === 'cancel_requested' || prior?.phase === 'cancel_requested') {
        // the earlier run cancelled this job: submit it again now
        return runQueueJob(opts);
      }
      throw new FalError(
        `${err.message}\n(job ${requestId} failed on fal; its state moved to ${failed}, so the next run submits a new job)`,
        err.status,
        err.detail,
        requestId,
        { cause: err },
      );
    }
    throw err;
  }
  await writeJobState(opts.stateFile, { ...state, phase: 'completed', result: data });
  return { requestId, data, resumed };
}

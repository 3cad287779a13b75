import type { Worker } from 'node:worker_threads';
import type { SegmentJob, SegmentResult } from './detect-segment.js';
import { spawnWorker } from './spawn-worker.js';

/**
 * Splits `total` frames into `segments` consecutive ranges `[start, end)` for a parallel refine
 * with `warmup` frames before each range but the first: the first range is longer by `warmup`, so
 * every segment refines about the same number of frames. The last range's `end` is null (to the
 * clip's end: a probe's frame count is an estimate).
 *
 * ```ts
 * planSegments(120, 2, 10); // [{ start: 0, end: 65 }, { start: 65, end: null }]
 * ```
 */
export function planSegments(
  total: number,
  segments: number,
  warmup: number,
): { start: number; end: number | null }[] {
  const s = Math.max(1, Math.floor(segments));
  const first = Math.ceil((total + (s - 1) * warmup) / s);
  const out: { start: number; end: number | null }[] = [];
  let start = 0;
  for (let k = 0; k < s; k++) {
    const end = k === s - 1 ? null : Math.min(total, start + (k === 0 ? first : first - warmup));
    out.push({ start, end });
    if (end === null || end >= total) break;
    start = end;
  }
  if (out.length > 0) out[out.length - 1]!.end = null;
  return out;
}

/**
 * Runs {@link detectSegment} on each job in its own worker thread, all at once, and returns
 * their results in job order; `onFrame` gets the refined frames so far over all segments. A
 * failure in any worker stops the others and rejects with it.
 */
export async function detectSegments(
  jobs: SegmentJob[],
  onFrame: (done: number) => void = () => {},
  signal?: AbortSignal,
): Promise<SegmentResult[]> {
  const done = jobs.map(() => 0);
  const workers: Worker[] = [];
  const stopAll = () => Promise.all(workers.map((w) => w.terminate()));
  try {
    return await Promise.all(
      jobs.map(
        (job, k) =>
          new Promise<SegmentResult>((resolve, reject) => {
            const w = spawnWorker('segment-worker', job);
            workers.push(w);
            let settled = false;
            const fail = (err: Error) => {
              if (settled) return;
              settled = true;
              reject(err);
            };
            signal?.addEventListener('abort', () => fail(new Error(`detect: ${job.clip}: aborted.`)), {
              once: true,
            });
            w.on('message', (msg: { type: string } & Record<string, unknown>) => {
              if (msg.type === 'frame') {
                done[k] = msg.done as number;
                onFrame(done.reduce((a, b) => a + b, 0));
              } else if (msg.type === 'done') {
                settled = true;
                resolve(msg.result as SegmentResult);
              } else if (msg.type === 'error') {
                const err = new Error(msg.message as string);
                if (typeof msg.stack === 'string') err.stack = msg.stack;
                fail(err);
              }
            });
            w.on('error', fail);
            w.on('exit', (code) => {
              fail(
                new Error(
                  `detect: ${job.clip}: the worker of frames ${job.start}+ exited with code ${code}.`,
                ),
              );
            });
          }),
      ),
    );
  } finally {
    await stopAll();
  }
}

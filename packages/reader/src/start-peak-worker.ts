import type { PeaksBatch, PeaksCalib, ReadPeaksOptions } from './read-peaks.js';
import { spawnWorker } from './spawn-worker.js';

/** Stage 1 running in a worker thread; see {@link startPeakWorker}. */
export interface PeakWorker {
  /** How the clip maps onto the layout, once the worker has seen the first frame. */
  calib: Promise<PeaksCalib>;
  /** The peaks so far, det.npz's layout (T x K x 2, T x K), growing batch by batch. */
  peaks: { frontUv: number[]; sideUv: number[]; frontConf: number[]; sideConf: number[] };
  /** Resolves once frame `t`'s peaks are in {@link PeakWorker.peaks} (false: the clip ended before it). */
  ready(t: number): Promise<boolean>;
  /** The backend that ran and the frames read, when the worker is done. */
  done: Promise<{ backend: string; frames: number }>;
  /** Stops the worker (also after `done`). */
  terminate(): Promise<void>;
}

/**
 * Starts stage 1 of detect ({@link readPeaks}: decode, calibrate, heatmap reader on both views,
 * peaks in layout px) in a worker thread, so that on a machine with two cores the refinement of
 * a batch of frames overlaps the inference of the next. The worker decodes the clip itself; the
 * caller decodes it again for the refinement (ffmpeg decodes in its own process).
 *
 * ```ts
 * const w = startPeakWorker({ clip, reader, calib: 'identity', batchFrames: 4 });
 * const { calib } = await w.calib;
 * await w.ready(0); // w.peaks.frontUv holds frame 0's peaks
 * ```
 */
export function startPeakWorker(options: ReadPeaksOptions): PeakWorker {
  const worker = spawnWorker('peak-worker', options);
  const peaks: PeakWorker['peaks'] = { frontUv: [], sideUv: [], frontConf: [], sideConf: [] };
  let have = 0;
  let finished = false;
  let failure: Error | null = null;
  const waiting: { t: number; resolve: (ok: boolean) => void; reject: (e: Error) => void }[] = [];
  const settle = () => {
    for (let i = waiting.length - 1; i >= 0; i--) {
      const w = waiting[i];
      if (failure) w.reject(failure);
      else if (w.t < have) w.resolve(true);
      else if (finished) w.resolve(false);
      else continue;
      waiting.splice(i, 1);
    }
  };
  let calibResolve: (c: PeaksCalib) => void = () => {};
  let calibReject: (e: Error) => void = () => {};
  const calib = new Promise<PeaksCalib>((res, rej) => {
    calibResolve = res;
    calibReject = rej;
  });
  let doneResolve: (r: { backend: string; frames: number }) => void = () => {};
  let doneReject: (e: Error) => void = () => {};
  const done = new Promise<{ backend: string; frames: number }>((res, rej) => {
    doneResolve = res;
    doneReject = rej;
  });
  // Handled by whoever awaits them; these keep an unawaited rejection from crashing the process.
  calib.catch(() => {});
  done.catch(() => {});
  const fail = (err: Error) => {
    if (failure || finished) return;
    failure = err;
    calibReject(err);
    doneReject(err);
    settle();
  };
  worker.on('message', (msg: { type: string } & Record<string, unknown>) => {
    if (msg.type === 'calib') calibResolve(msg as unknown as PeaksCalib);
    else if (msg.type === 'batch') {
      const b = msg.batch as PeaksBatch;
      for (const k of ['frontUv', 'sideUv', 'frontConf', 'sideConf'] as const) {
        for (const v of b[k]) peaks[k].push(v);
      }
      have = b.start + b.frames;
      settle();
    } else if (msg.type === 'done') {
      finished = true;
      calibReject(new Error(`detect: ${options.clip}: no frames decoded.`));
      doneResolve({ backend: msg.backend as string, frames: msg.frames as number });
      settle();
    } else if (msg.type === 'error') {
      const err = new Error(msg.message as string);
      if (typeof msg.name === 'string') err.name = msg.name;
      if (typeof msg.stack === 'string') err.stack = msg.stack;
      fail(err);
    }
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    if (!finished) fail(new Error(`detect: ${options.clip}: the stage-1 worker exited with code ${code}.`));
  });
  return {
    calib,
    peaks,
    ready: (t) =>
      failure
        ? Promise.reject(failure)
        : t < have
          ? Promise.resolve(true)
          : finished
            ? Promise.resolve(false)
            : new Promise((resolve, reject) => {
                waiting.push({ t, resolve, reject });
              }),
    done,
    async terminate() {
      finished = true;
      await worker.terminate();
    },
  };
}

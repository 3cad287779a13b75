import type { Detections, Layout } from '@mocap/layout';
import { decodeVideo, type RgbImage, type VideoInfo } from '@mocap/media';
import type { z } from 'zod';
import { initBackend } from './backend.js';
import { type ClipCalib, calibAt } from './calib-at.js';
import type { ClipCalibration } from './calibrate-clip.js';
import { type ClipCalibs, clipCalib } from './clip-calib.js';
import type { DetectEvent } from './detect-event.js';
import type { DetectOptions } from './detect-options.js';
import { framePeaks, type PeakLists, toLayout } from './frame-peaks.js';
import { loadReader } from './reader-io.js';
import { type RefineClipInput, type RefineClipResult, refineClip } from './refine/refine-clip.js';
import type { PeakWorker } from './start-peak-worker.js';

// The two ways detectClip reads a clip: inline, or with stage 1 in a worker thread.

const OP = 'detect';

export type Refinement = Pick<RefineClipInput, 'mesh' | 'paint' | 'keypoints' | 'colour'>;

export interface ReadContext {
  o: z.output<typeof DetectOptions>;
  layout: Layout;
  ref: RgbImage | undefined;
  info: VideoInfo;
  refine: Refinement | null;
  total: number;
  onEvent: (e: DetectEvent) => void;
  signal: AbortSignal | undefined;
}

/** Keypoints per frame and view: T x K x 2 layout px, T x K confidences. */
type UvConf = Pick<Detections, 'frontUv' | 'sideUv' | 'frontConf' | 'sideConf'>;

/** What one way of reading the clip gives {@link detectClip}. */
export interface ReadOutcome {
  peaks: PeakLists | UvConf;
  refined: UvConf | null;
  frames: number;
  calibration: ClipCalibration | null;
  calib: ClipCalib;
  /** Each frame's calibration, T x 4. */
  calibFrames: Float64Array;
  backend: string;
  refineSeconds: number;
}

/** The clip's calibration, frame by frame (`auto`: measured on the clip's studio and ref.png). */
async function calibrate(ctx: ReadContext): Promise<ClipCalibs> {
  const c = await clipCalib(ctx.o.calib, ctx.o.clip, ctx.info, ctx.total, ctx.layout, ctx.ref, ctx.signal);
  ctx.onEvent({ phase: 'calib', calibration: c.calibration });
  return c;
}

function decodeOptions(ctx: ReadContext) {
  return {
    info: ctx.info,
    ...(ctx.o.maxFrames ? { maxFrames: ctx.o.maxFrames } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

function pickUv(r: UvConf): UvConf {
  return { frontUv: r.frontUv, sideUv: r.sideUv, frontConf: r.frontConf, sideConf: r.sideConf };
}

/** Stage 1 (and stage 2 frame by frame as each batch's peaks are known) on this thread. */
export async function readInline(ctx: ReadContext): Promise<ReadOutcome> {
  const { o, layout, refine, total, onEvent } = ctx;
  const cal = await calibrate(ctx);
  const backend = await initBackend();
  const { reader } = await loadReader(o.reader, o.joints ? { joints: o.joints } : {});
  try {
    const peaks: PeakLists = { frontUv: [], sideUv: [], frontConf: [], sideConf: [] };
    const frames = framePeaks(
      decodeVideo(o.clip, decodeOptions(ctx)),
      reader,
      layout,
      (t) => calibAt(cal.frames, t),
      peaks,
      {
        batchFrames: o.batchFrames,
        peakConf: o.peakConf,
        keepFrames: refine !== null,
        onBatch: (done) => onEvent({ phase: 'frames', done, total }),
      },
    );
    const done = () => peaks.frontConf.length / reader.config.joints.length;
    let refined: RefineClipResult | null = null;
    if (refine) {
      refined = await refineClip(
        { ...refine, layout, frames, peaks, clip: o.clip },
        o.refine?.options ?? {},
        (i) => onEvent({ phase: 'refine', done: i + 1, total }),
      ).catch((err: Error) => {
        if (done() === 0) throw new Error(`${OP}: ${o.clip}: no frames decoded.`, { cause: err });
        throw err;
      });
    } else for await (const _ of frames);
    return {
      peaks,
      refined: refined && pickUv(refined),
      frames: done(),
      calibration: cal.calibration,
      calib: cal.calib,
      calibFrames: cal.frames,
      backend: backend.choice,
      refineSeconds: refined?.seconds ?? 0,
    };
  } finally {
    reader.dispose();
  }
}

/**
 * Stage 1 in a worker thread (`w`, {@link startPeakWorker} started by the caller), stage 2 here on
 * a second decode of the clip, each frame as soon as the worker has its peaks: the inference of
 * the next frames overlaps the refinement. Null when the worker fails before its first frame (the
 * caller reads inline). Terminates the worker.
 */
export async function readWithPeakWorker(
  ctx: ReadContext,
  refine: Refinement,
  w: PeakWorker,
): Promise<ReadOutcome | null> {
  const { o, layout, total, onEvent } = ctx;
  try {
    const cal = await w.calib.catch((err: Error) => {
      // The clip itself is refused: reading it inline would say the same.
      if (err.name === 'CalibrationError') throw err;
      return null;
    });
    if (!cal) return null;
    onEvent({ phase: 'calib', calibration: cal.calibration });
    const k = refine.keypoints.names.length;
    async function* frames(): AsyncGenerator<RgbImage> {
      let t = 0;
      let told = 0;
      for await (const frame of decodeVideo(o.clip, decodeOptions(ctx))) {
        if (!(await w.ready(t))) return;
        // once per batch the worker reports, as inline
        const done = w.peaks.frontConf.length / k;
        if (done > told) onEvent({ phase: 'frames', done, total });
        told = done;
        yield toLayout(frame, calibAt(cal!.frames, t), layout);
        t++;
      }
    }
    const refined = await refineClip(
      { ...refine, layout, frames: frames(), peaks: w.peaks, clip: o.clip },
      o.refine?.options ?? {},
      (i) => onEvent({ phase: 'refine', done: i + 1, total }),
    );
    const { backend } = await w.done;
    const n = refined.frames;
    const cut = (a: number[], per: number) => a.slice(0, n * per);
    return {
      peaks: {
        frontUv: cut(w.peaks.frontUv, 2 * k),
        sideUv: cut(w.peaks.sideUv, 2 * k),
        frontConf: cut(w.peaks.frontConf, k),
        sideConf: cut(w.peaks.sideConf, k),
      },
      refined: pickUv(refined),
      frames: n,
      calibration: cal.calibration,
      calib: cal.calib,
      calibFrames: cal.frames,
      backend,
      refineSeconds: refined.seconds,
    };
  } finally {
    await w.terminate();
  }
}

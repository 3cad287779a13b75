import type { Detections, Layout } from '@mocap/layout';
import { decodeVideo, type RgbImage, type VideoInfo } from '@mocap/media';
import type { z } from 'zod';
import { initBackend } from './backend.js';
import { type ClipCalib, calibAt } from './calib-at.js';
import type { ClipCalibration } from './calibrate-clip.js';
import { type ClipCalibs, clipCalib } from './clip-calib.js';
import { type ClipFrames, clipFrames, LAG_WINDOW, unseenFrames, ViewLagFound } from './clip-frames.js';
import { deghostFrames } from './deghost-frames.js';
import type { ClipNoise } from './describe-noise.js';
import type { DetectEvent } from './detect-event.js';
import type { DetectOptions } from './detect-options.js';
import { framePeaks, type PeakLists } from './frame-peaks.js';
import { loadReader } from './reader-io.js';
import { type RefineClipInput, type RefineClipResult, refineClip } from './refine/refine-clip.js';
import type { RefineClipOptions } from './refine/refine-clip-options.js';
import type { PeakWorker } from './start-peak-worker.js';
import { type ClipFade, unfadeFrames } from './unfade-frames.js';
import { zoomAssumed } from './unzoom-detections.js';
import { alignPeaks, estimateViewLag, type ViewLag } from './view-lag.js';

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
  /** The zoom the refinement followed, per frame (`RefineClipResult.zoom`), else null. */
  zoom: Float64Array | null;
  frames: number;
  calibration: ClipCalibration | null;
  calib: ClipCalib;
  /** Each frame's calibration, T x 4. */
  calibFrames: Float64Array;
  backend: string;
  refineSeconds: number;
  /** The wall's pixel noise and the frames box-blurred for labelling (`RefineClipResult.noise`), else null. */
  noise: ClipNoise | null;
  /** The fade-in found at the clip's start ({@link unfadeFrames}). */
  fade: ClipFade;
  /** How far one view runs behind the other ({@link estimateViewLag}); the peaks are put in step. */
  lag: ViewLag;
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

/** The clip's frames with any ghosting the calibration measured undone ({@link deghostFrames}). */
function deghosted(ctx: ReadContext, cal: ClipCalibs) {
  return deghostFrames(decodeVideo(ctx.o.clip, decodeOptions(ctx)), cal.ghost?.blend ?? 0);
}

/**
 * Whether the refinement follows a zoom: asked (`creatureZoom: 'follow'`), the calibration had to
 * assume the zoom, and the framing drifts (a still camera is not fitted a zoom its outline's
 * misfit would invent).
 */
function followsZoom(o: ReadContext['o'], calibration: ClipCalibration | null): boolean {
  return o.creatureZoom === 'follow' && zoomAssumed(calibration) && calibration.drifts;
}

/** The refinement's options, following a zoom where {@link followsZoom}. */
function refineOptions(o: ReadContext['o'], calibration: ClipCalibration | null): RefineClipOptions {
  return { ...(o.refine?.options ?? {}), followZoom: followsZoom(o, calibration) };
}

function pickUv(r: UvConf): UvConf {
  return { frontUv: r.frontUv, sideUv: r.sideUv, frontConf: r.frontConf, sideConf: r.sideConf };
}

/** Stage 1 over the whole clip on this thread, then stage 2 on a second decode of it. */
export async function readInline(ctx: ReadContext): Promise<ReadOutcome> {
  const { o, layout, refine, total, onEvent } = ctx;
  const cal = await calibrate(ctx);
  const backend = await initBackend();
  const { reader } = await loadReader(o.reader, o.joints ? { joints: o.joints } : {});
  const k = reader.config.joints.length;
  const calibOf = (t: number) => calibAt(cal.frames, t);
  try {
    const peaks: PeakLists = { frontUv: [], sideUv: [], frontConf: [], sideConf: [] };
    const fade: ClipFade = { visibility: [] };
    const stage1 = framePeaks(
      unfadeFrames(deghosted(ctx, cal), layout, calibOf, fade),
      reader,
      layout,
      calibOf,
      peaks,
      {
        batchFrames: o.batchFrames,
        peakConf: o.peakConf,
        keepFrames: false,
        onBatch: (done) => onEvent({ phase: 'frames', done, total }),
      },
    );
    for await (const _ of stage1);
    const done = peaks.frontConf.length / k;
    if (done === 0) throw new Error(`${OP}: ${o.clip}: no frames decoded.`);
    let refined: RefineClipResult | null = null;
    let lag = estimateViewLag(peaks, k, Math.min(done, LAG_WINDOW), { first: unseenFrames(fade) });
    if (refine) {
      const c = await clipFrames(
        deghosted(ctx, cal),
        layout,
        cal.frames,
        peaks,
        k,
        total,
        async (t) => t < done,
      );
      lag = c.lag;
      onEvent({ phase: 'views', fade: c.fade, lag });
      refined = await refineClip(
        {
          ...refine,
          layout,
          frames: c.frames,
          peaks: { ...peaks, lag: lag.frames },
          clip: o.clip,
          visibility: c.fade.visibility,
        },
        refineOptions(o, cal.calibration),
        (i) => onEvent({ phase: 'refine', done: i + 1, total }),
      );
    } else onEvent({ phase: 'views', fade, lag });
    return {
      peaks: inStep(peaks, k, done, lag, fade),
      refined: refined && unshownTail(pickUv(refined), k, lag.frames),
      zoom: followsZoom(o, cal.calibration) ? (refined?.zoom ?? null) : null,
      frames: done,
      calibration: cal.calibration,
      calib: cal.calib,
      calibFrames: cal.frames,
      backend: backend.choice,
      refineSeconds: refined?.seconds ?? 0,
      noise: refined?.noise ?? null,
      fade,
      lag,
    };
  } finally {
    reader.dispose();
  }
}

/**
 * Refined keypoints with the view that ran behind at confidence 0 on the clip's last frames,
 * which the clip does not show in that view (the refinement saw the empty wall there): the
 * solver carries them from the other view and the frames before.
 */
function unshownTail(r: UvConf, k: number, lag: number): UvConf {
  const conf = lag > 0 ? r.sideConf : r.frontConf;
  const frames = conf.length / k;
  conf.fill(0, Math.max(0, frames - Math.abs(lag)) * k);
  return r;
}

/** Stage 1's peaks with the views in step and a fade's unreadable frames at confidence 0. */
function inStep(peaks: PeakLists, k: number, frames: number, lag: ViewLag, fade: ClipFade): UvConf {
  const out = alignPeaks(peaks, k, frames, lag.frames);
  const unseen = Math.min(frames, unseenFrames(fade));
  out.frontConf.fill(0, 0, unseen * k);
  out.sideConf.fill(0, 0, unseen * k);
  return out;
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
    let told = 0;
    const ready = async (t: number) => {
      const ok = await w.ready(t);
      // once per batch the worker reports, as inline
      const done = w.peaks.frontConf.length / k;
      if (done > told) onEvent({ phase: 'frames', done, total });
      told = done;
      return ok;
    };
    // The refinement starts at once as if the views were in step (most clips are); when stage 1's
    // first frames show a lag after all, it starts again on the clip read with the views in step.
    const views = (lag: ViewLag, fade: ClipFade) => onEvent({ phase: 'views', fade, lag });
    const refineFrames = (c: ClipFrames) =>
      refineClip(
        {
          ...refine,
          layout,
          frames: c.frames,
          peaks: { ...w.peaks, lag: c.lag.frames },
          clip: o.clip,
          visibility: c.fade.visibility,
        },
        refineOptions(o, cal.calibration),
        (i) => onEvent({ phase: 'refine', done: i + 1, total }),
      );
    let c = await clipFrames(deghosted(ctx, cal), layout, cal.frames, w.peaks, k, total, ready, {
      inStep: true,
      onLag: (lag, fade) => {
        if (lag.frames === 0) views(lag, fade);
      },
    });
    let refined: RefineClipResult;
    try {
      refined = await refineFrames(c);
    } catch (err) {
      if (!(err instanceof ViewLagFound)) throw err;
      c = await clipFrames(deghosted(ctx, cal), layout, cal.frames, w.peaks, k, total, ready, {
        onLag: views,
      });
      refined = await refineFrames(c);
    }
    const { backend } = await w.done;
    const n = refined.frames;
    return {
      peaks: inStep(w.peaks, k, n, c.lag, c.fade),
      refined: unshownTail(pickUv(refined), k, c.lag.frames),
      zoom: followsZoom(o, cal.calibration) ? refined.zoom : null,
      frames: n,
      calibration: cal.calibration,
      calib: cal.calib,
      calibFrames: cal.frames,
      backend,
      refineSeconds: refined.seconds,
      noise: refined.noise,
      fade: c.fade,
      lag: c.lag,
    };
  } finally {
    await w.terminate();
  }
}

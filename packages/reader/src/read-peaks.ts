import { Layout, type LayoutInput } from '@mocap/layout';
import { decodeVideo, probeVideo, type RgbImage, readPng } from '@mocap/media';
import { initBackend } from './backend.js';
import { calibAt } from './calib-at.js';
import { type CalibMode, type ClipCalibs, clipCalib } from './clip-calib.js';
import { deghostFrames } from './deghost-frames.js';
import { framePeaks, type PeakLists } from './frame-peaks.js';
import { loadReader } from './reader-io.js';
import { unfadeFrames } from './unfade-frames.js';

/** What {@link readPeaks} reads: a clip, a saved reader and how the clip maps onto the layout. */
export interface ReadPeaksOptions {
  clip: string;
  /** Folder of a saved reader. */
  reader: string;
  joints?: string[] | undefined;
  layout?: LayoutInput | undefined;
  /** As `detectClip`'s `calib`; `auto` needs `ref`. */
  calib: CalibMode;
  ref?: string | undefined;
  /** Frames per inference batch (two views each). */
  batchFrames: number;
  maxFrames?: number | undefined;
  /** As `detectClip`'s `peakConf`: the confidence is the peak's value or its margin. @default 'margin' */
  peakConf?: 'peak' | 'margin' | undefined;
}

/** How the clip maps onto the layout: the calibration found (`auto`), the typical one and each frame's. */
export type PeaksCalib = ClipCalibs;

/** One batch of stage 1's heatmap peaks: frames `start ..`, K x 2 layout px and K confidences per frame and view. */
export interface PeaksBatch {
  start: number;
  frames: number;
  frontUv: Float32Array;
  sideUv: Float32Array;
  frontConf: Float32Array;
  sideConf: Float32Array;
}

/**
 * Stage 1 of detect on its own: calibrates the clip ({@link clipCalib}), decodes it (a fade-in
 * restored: {@link unfadeFrames}), runs the heatmap reader on both views of every frame in
 * batches and reports each batch's peaks in layout px as soon as they are known (what
 * {@link startPeakWorker} runs in a worker thread, so the refinement of one batch overlaps the
 * inference of the next). Returns the backend and frames read.
 *
 * ```ts
 * await readPeaks({ clip, reader, calib: 'identity', batchFrames: 4 }, (c) => {}, (b) => console.log(b.start));
 * ```
 */
export async function readPeaks(
  o: ReadPeaksOptions,
  onCalib: (c: PeaksCalib) => void,
  onBatch: (b: PeaksBatch) => void,
): Promise<{ backend: string; frames: number }> {
  const layout = Layout.parse(o.layout ?? {});
  const ref: RgbImage | undefined = o.calib === 'auto' && o.ref ? await readPng(o.ref) : undefined;
  // Calibrated before the reader loads, so the caller has each frame's calibration early.
  const info = await probeVideo(o.clip);
  const total = o.maxFrames ? Math.min(o.maxFrames, info.frames) : info.frames;
  const cal = await clipCalib(o.calib, o.clip, info, total, layout, ref);
  onCalib(cal);
  const backend = await initBackend();
  const { reader } = await loadReader(o.reader, o.joints ? { joints: o.joints } : {});
  try {
    const peaks: PeakLists = { frontUv: [], sideUv: [], frontConf: [], sideConf: [] };
    let done = 0;
    // each batch's peaks leave the lists as soon as framePeaks has appended them
    const drain = (upTo: number) => {
      onBatch({
        start: done,
        frames: upTo - done,
        frontUv: Float32Array.from(peaks.frontUv.splice(0)),
        sideUv: Float32Array.from(peaks.sideUv.splice(0)),
        frontConf: Float32Array.from(peaks.frontConf.splice(0)),
        sideConf: Float32Array.from(peaks.sideConf.splice(0)),
      });
      done = upTo;
    };
    const calibOf = (t: number) => calibAt(cal.frames, t);
    const clip = deghostFrames(
      decodeVideo(o.clip, { info, ...(o.maxFrames ? { maxFrames: o.maxFrames } : {}) }),
      cal.ghost?.blend ?? 0,
    );
    const opts = {
      batchFrames: o.batchFrames,
      peakConf: o.peakConf ?? 'margin',
      keepFrames: false,
      onBatch: drain,
    };
    for await (const _ of framePeaks(clip, reader, layout, calibOf, peaks, opts)) {
      // keepFrames: false yields nothing; the peaks go out through onBatch
    }
    return { backend: backend.choice, frames: done };
  } finally {
    reader.dispose();
  }
}

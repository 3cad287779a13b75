import { Layout, type LayoutInput } from '@mocap/layout';
import { decodeVideo, type RgbImage } from '@mocap/media';
import { initBackend } from './backend.js';
import { type ClipCalib, framePeaks, type PeakLists } from './frame-peaks.js';
import { loadReader } from './reader-io.js';
import type { ColourModel } from './refine/colour-model.js';
import type { PaintJoints } from './refine/paint-labels.js';
import { type RefineClipOptions, refineClip } from './refine/refine-clip.js';
import { type RigKeypointSpec, rigKeypoints } from './refine/rig-keypoints.js';
import { readSkinnedMesh } from './refine/skinned-mesh.js';

/** One clip segment of a parallel detect + refine ({@link detectSegment}); plain data, for a worker thread. */
export interface SegmentJob {
  clip: string;
  reader: string;
  joints?: string[] | undefined;
  layout?: LayoutInput | undefined;
  calib: ClipCalib;
  batchFrames: number;
  peakConf: 'peak' | 'margin';
  /** The segment's frames `[start, end)` of the clip (`end` null: to the clip's end). */
  start: number;
  end: number | null;
  /**
   * Frames refined before `start` and discarded: the segment starts at `start - warmup` from the
   * placed rest pose, as the clip's first frame does, and tracks its way into `start`.
   */
  warmup: number;
  refine: {
    glb: string;
    keypoints: RigKeypointSpec[];
    paint: PaintJoints[];
    unitScale: number;
    options: RefineClipOptions;
    /** The clip's colour model (fitted once, on ref.png or the clip's first frame). */
    colour: ColourModel;
  };
}

/** What {@link detectSegment} returns: the segment's frames, from `start` on. */
export interface SegmentResult {
  frames: number;
  heatmaps: { frontUv: Float32Array; sideUv: Float32Array; frontConf: Float32Array; sideConf: Float32Array };
  refined: { frontUv: Float32Array; sideUv: Float32Array; frontConf: Float32Array; sideConf: Float32Array };
  /** Seconds of the refinement (warm-up included). */
  refineSeconds: number;
  backend: string;
}

/**
 * Detect + refine of one clip segment (what each worker thread of a parallel `detectClip` runs):
 * decodes the clip up to the segment's end (frames before `start - warmup` are decoded and
 * skipped), reads the heatmap peaks of the rest, refines them frame to frame from the placed rest
 * pose, and returns both for the frames from `start` on. `onFrame`: refined frames so far (from
 * `start`). The result depends only on the job, never on timing.
 *
 * ```ts
 * const r = await detectSegment({ ...job, start: 60, end: null, warmup: 10 });
 * ```
 */
export async function detectSegment(
  job: SegmentJob,
  onFrame: (done: number) => void = () => {},
): Promise<SegmentResult> {
  const layout = Layout.parse(job.layout ?? {});
  const from = Math.max(0, job.start - job.warmup);
  const skip = job.start - from;
  const mesh = await readSkinnedMesh(job.refine.glb, { unitScale: job.refine.unitScale });
  const keypoints = rigKeypoints(mesh, job.refine.keypoints, job.refine.glb);
  const backend = await initBackend();
  const { reader } = await loadReader(job.reader, job.joints ? { joints: job.joints } : {});
  try {
    const peaks: PeakLists = { frontUv: [], sideUv: [], frontConf: [], sideConf: [] };
    async function* range(): AsyncGenerator<RgbImage> {
      let t = 0;
      for await (const f of decodeVideo(job.clip, job.end === null ? {} : { maxFrames: job.end })) {
        if (t++ >= from) yield f;
      }
    }
    const frames = framePeaks(range(), reader, layout, () => job.calib, peaks, {
      batchFrames: job.batchFrames,
      peakConf: job.peakConf,
      keepFrames: true,
    });
    // A segment that starts past the clip's last frame (a probe's frame count is an estimate) is empty.
    const first = await frames.next();
    if (first.done || peaks.frontConf.length === 0) return empty(backend.choice);
    async function* all(): AsyncGenerator<RgbImage> {
      yield first.value as RgbImage;
      yield* frames;
    }
    const r = await refineClip(
      { mesh, paint: job.refine.paint, keypoints, layout, colour: job.refine.colour, frames: all(), peaks },
      job.refine.options,
      (i) => {
        if (i >= skip) onFrame(i - skip + 1);
      },
    );
    const k = keypoints.names.length;
    const n = Math.max(0, r.frames - skip);
    const cut = (a: ArrayLike<number>, per: number) =>
      Float32Array.from(Array.prototype.slice.call(a, skip * per, (skip + n) * per));
    return {
      frames: n,
      heatmaps: {
        frontUv: cut(peaks.frontUv, 2 * k),
        sideUv: cut(peaks.sideUv, 2 * k),
        frontConf: cut(peaks.frontConf, k),
        sideConf: cut(peaks.sideConf, k),
      },
      refined: {
        frontUv: r.frontUv.slice(skip * 2 * k),
        sideUv: r.sideUv.slice(skip * 2 * k),
        frontConf: r.frontConf.slice(skip * k),
        sideConf: r.sideConf.slice(skip * k),
      },
      refineSeconds: r.seconds,
      backend: backend.choice,
    };
  } finally {
    reader.dispose();
  }
}

function empty(backend: string): SegmentResult {
  const z = () => new Float32Array(0);
  return {
    frames: 0,
    heatmaps: { frontUv: z(), sideUv: z(), frontConf: z(), sideConf: z() },
    refined: { frontUv: z(), sideUv: z(), frontConf: z(), sideConf: z() },
    refineSeconds: 0,
    backend,
  };
}

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { type Detections, FileError, Layout, readJsonFile, writeDetections } from '@mocap/layout';
import { probeVideo, type RgbImage, readPng } from '@mocap/media';
import type { z } from 'zod';
import type { ClipCalibration } from './calibrate-clip.js';
import { CREATURE_ZOOM, type CreatureZoom } from './creature-zoom.js';
import type { ClipNoise } from './describe-noise.js';
import type { DetectEvent } from './detect-event.js';
import { DetectOptions } from './detect-options.js';
import { type ReadContext, type ReadOutcome, readInline, readWithPeakWorker } from './detect-read.js';
import { meshRigidPairs } from './mesh-rigid-pairs.js';
import { parseOptions } from './parse-options.js';
import { ReaderModelJson } from './reader-io.js';
import { fitColourModel } from './refine/colour-model.js';
import { vertexPaintLabels } from './refine/paint-labels.js';
import { backdropSilhouette, placeRestPose } from './refine/place-rest-pose.js';
import type { RefineClipInput } from './refine/refine-clip.js';
import { rigKeypoints } from './refine/rig-keypoints.js';
import { readSkinnedMesh } from './refine/skinned-mesh.js';
import type { RigidPair } from './rigid-pairs.js';
import { startPeakWorker } from './start-peak-worker.js';
import type { ClipFade } from './unfade-frames.js';
import { unzoomDetections } from './unzoom-detections.js';
import type { ViewLag } from './view-lag.js';

/** Detections plus how the clip was calibrated and which backend ran. */
export interface DetectResult {
  /** What det.npz holds: the refined keypoints with `refine`, else the heatmap peaks. */
  detections: Detections;
  /** The heatmap peaks (stage 1); the same object as `detections` without `refine`. */
  heatmaps: Detections;
  /** Where the heatmap peaks were written with `refine` and `out` (`<name>_heatmaps.npz`), else null. */
  heatmapsFile: string | null;
  /** How the clip was calibrated (`calib: 'auto'`), with its drift and the frames it skipped; else null. */
  calibration: ClipCalibration | null;
  backend: string;
  /** Wall-clock seconds of the decode + read (+ refine) loop, from stage 1's start-up on. */
  seconds: number;
  /** Seconds spent in the refinement (segmentation + fit), 0 without it. */
  refineSeconds: number;
  /** The most pixel noise the clip's wall showed and how many frames the refinement box-blurred before labelling them (`RefineClipOptions.denoiseAbove`); null without refinement. */
  noise: ClipNoise | null;
  /** The zoom the creature's size showed through the clip where the calibration assumed it ({@link unzoomDetections}), else null. */
  creatureZoom: CreatureZoom | null;
  /** The fade-in found at the clip's start, restored before both stages ({@link unfadeFrames}). */
  fade: ClipFade;
  /** How far one view runs behind the other ({@link estimateViewLag}); both detections are put in step. */
  lag: ViewLag;
}

/** `det.npz` -> `det_heatmaps.npz`: where {@link detectClip} keeps the heatmap peaks beside refined detections. */
export function heatmapsPath(out: string): string {
  const ext = path.extname(out);
  return path.join(path.dirname(out), `${path.basename(out, ext)}_heatmaps${ext || '.npz'}`);
}

const OP = 'detect';

/**
 * The shortest clip detect takes to calibrate itself (`calib: 'auto'`, a clip as it comes): fewer
 * frames make no motion to capture and leave too few to tell a frame that does not fit from the
 * rest. A clip whose calibration is given (`identity`, `[sx, sy, tx, ty]`: a rendered exam, a
 * test) may be shorter.
 */
export const MIN_CLIP_FRAMES = 8;

/**
 * Reads a two-view clip to joints with a trained heatmap reader: the clip is taken as it comes (any
 * frame size, bars, frame rate, rotation metadata; {@link MIN_CLIP_FRAMES} frames or more) and
 * calibrated to the layout frame by frame (scale and shift per axis from the studio's divider,
 * ground row and edges, with ref.png for the zoom: {@link calibrateClip}; a clip no calibration fits
 * is refused, saying what was measured), every frame's two views are sampled to the reader's input,
 * and the heatmap peaks become det.npz's `front_uv`, `side_uv` (layout px), `front_conf`,
 * `side_conf`, with `fps`, `names`, `calib` and, when the framing drifts, `calib_frames`. A fade-in
 * at the start is restored before both stages ({@link unfadeFrames}; frames too faint to read get
 * confidence 0), and a view that runs behind the other ({@link estimateViewLag}) is read ahead, so
 * the detections are in step (`view_lag` records how far it ran behind).
 *
 * ```ts
 * const { detections } = await detectClip({ clip: 'clip.mp4', reader: 'runs/reader', ref: 'runs/ref/ref.png', out: 'runs/det.npz' });
 * ```
 */
export async function detectClip(
  options: DetectOptions,
  onEvent: (e: DetectEvent) => void = () => {},
  signal?: AbortSignal,
): Promise<DetectResult> {
  const o = parseOptions(OP, DetectOptions, options);
  const layout = Layout.parse(o.layout ?? {});
  let ref: RgbImage | undefined;
  if (o.calib === 'auto') {
    if (!o.ref) throw new TypeError(`${OP}: Expected options.ref (ref.png) for calib 'auto', got none.`);
    ref = await readPng(o.ref);
    if (ref.width !== layout.WIDTH || ref.height !== layout.HEIGHT) {
      throw new Error(
        `${OP}: ${o.ref}: ref.png is ${ref.width} x ${ref.height}, the layout is ${layout.WIDTH} x ${layout.HEIGHT}.`,
      );
    }
  }
  const info = await probeVideo(o.clip, signal ? { signal } : {});
  if (o.calib === 'auto' && info.frames < MIN_CLIP_FRAMES) {
    throw new Error(
      `${OP}: ${o.clip}: the clip has ${info.frames} frame${info.frames === 1 ? '' : 's'} (${info.width} x ${info.height}, ${info.fps.toFixed(3)} fps); detect reads clips of ${MIN_CLIP_FRAMES} frames or more.`,
    );
  }
  const total = o.maxFrames ? Math.min(o.maxFrames, info.frames) : info.frames;
  // Stage 1's worker starts first, so its start-up (a thread, tfjs, the reader) overlaps the
  // refinement's (mesh, colour model).
  const t0 = performance.now();
  const useWorker =
    o.refine !== undefined &&
    (o.peakWorker ?? (availableParallelism() > 1 && total >= PEAK_WORKER_MIN_FRAMES));
  const worker = useWorker
    ? startPeakWorker({
        clip: o.clip,
        reader: o.reader,
        joints: o.joints,
        layout,
        calib: o.calib,
        ref: o.ref,
        batchFrames: o.batchFrames,
        maxFrames: o.maxFrames,
        peakConf: o.peakConf,
      })
    : null;
  let read: ReadOutcome | null = null;
  let names: string[];
  let pairs: RigidPair[] | null = null;
  try {
    const refine = o.refine ? await loadRefinement(o.refine, layout, o.joints, ref) : null;
    if (refine) pairs = meshRigidPairs(refine.mesh, refine.keypoints, layout, CREATURE_ZOOM.minPairPx);
    names = await readerJoints(o.reader, o.joints);
    if (refine && refine.keypoints.names.join() !== names.join()) {
      throw new Error(
        `${OP}: ${o.reader}: the reader's joints (${names.join(', ')}) are not the rig's keypoints (${refine.keypoints.names.join(', ')}) that refinement fits.`,
      );
    }
    const ctx: ReadContext = { o, layout, ref, info, refine, total, onEvent, signal };
    if (refine && worker) read = await readWithPeakWorker(ctx, refine, worker);
    read ??= await readInline(ctx);
  } finally {
    await worker?.terminate();
  }
  const { peaks, refined, frames, calib, calibFrames } = read;
  if (frames === 0) throw new Error(`${OP}: ${o.clip}: no frames decoded.`);
  const heatmaps: Detections = {
    names,
    fps: info.fps,
    frames,
    frontUv: Float32Array.from(peaks.frontUv),
    sideUv: Float32Array.from(peaks.sideUv),
    frontConf: Float32Array.from(peaks.frontConf),
    sideConf: Float32Array.from(peaks.sideConf),
    calib: Float64Array.of(calib.sx, calib.sy, calib.tx, calib.ty),
    ...(read.calibration?.drifts ? { calibFrames: calibFrames.slice(0, 4 * frames) } : {}),
    ...(read.lag.frames !== 0 ? { viewLag: read.lag.frames } : {}),
  };
  // A zoom the studio does not show (a framing that drifts), from the creature's size.
  const creatureZoom =
    pairs && read.calibration
      ? unzoomDetections(heatmaps, refined, read.calibration, pairs, layout, o.creatureZoom, read.zoom)
      : null;
  if (read.noise) onEvent({ phase: 'noise', noise: read.noise, frames });
  if (creatureZoom && read.calibration) onEvent({ phase: 'zoom', calibration: read.calibration });
  const detections: Detections = refined ? { ...heatmaps, ...refined } : heatmaps;
  let heatmapsFile: string | null = null;
  if (o.out) {
    if (refined) {
      heatmapsFile = heatmapsPath(o.out);
      await writeDetections(heatmapsFile, heatmaps);
    }
    await writeDetections(o.out, detections);
  }
  return {
    detections,
    heatmaps,
    heatmapsFile,
    calibration: read.calibration,
    backend: read.backend,
    seconds: (performance.now() - t0) / 1000,
    refineSeconds: read.refineSeconds,
    noise: read.noise,
    creatureZoom,
    fade: read.fade,
    lag: read.lag,
  };
}

/**
 * The shortest clip {@link detectClip} reads with stage 1 in a worker thread by default: the
 * worker's start-up is paid back only on longer clips (docs/benchmarks.md, detect throughput).
 */
export const PEAK_WORKER_MIN_FRAMES = 60;

/** The reader's joint names from its model.json (checked against `joints` when given). */
async function readerJoints(dir: string, joints: string[] | undefined): Promise<string[]> {
  const file = path.join(dir, 'model.json');
  const model = await readJsonFile('loadReader', file, ReaderModelJson);
  if (joints && joints.join('\n') !== model.joints.join('\n')) {
    throw new Error(
      `loadReader: ${file}: joints: this reader was trained for ${JSON.stringify(model.joints)}, the creature has ${JSON.stringify(joints)}.`,
    );
  }
  return [...model.joints];
}

/**
 * What stage 2 needs, read and checked before the clip: the skinned mesh of the rigged glTF, the
 * rig's keypoints on it, the paint groups, and a colour model fitted on ref.png at the rest pose
 * (or, without ref.png, on the clip's first frame).
 */
async function loadRefinement(
  r: NonNullable<z.output<typeof DetectOptions>['refine']>,
  layout: Layout,
  joints: string[] | undefined,
  ref: RgbImage | undefined,
): Promise<Pick<RefineClipInput, 'mesh' | 'paint' | 'keypoints' | 'colour'>> {
  if (!existsSync(r.glb)) {
    throw new FileError(
      `${OP}: ${r.glb}: the rigged glTF that refinement reads is missing; export it from the rig (\`mocap rig\`, or capture does it when rigged.blend exists), or turn refinement off.`,
      r.glb,
      '',
    );
  }
  if (joints && joints.join() !== r.keypoints.map((k) => k.name).join()) {
    throw new TypeError(
      `${OP}: options.refine.keypoints (${r.keypoints.map((k) => k.name).join(', ')}) are not options.joints (${joints.join(', ')}).`,
    );
  }
  const mesh = await readSkinnedMesh(r.glb, { unitScale: r.unitScale });
  const keypoints = rigKeypoints(mesh, r.keypoints, r.glb);
  let colour: RefineClipInput['colour'] = 'first-frame';
  if (ref) {
    const placed = placeRestPose(
      mesh,
      vertexPaintLabels(mesh, r.paint),
      layout,
      backdropSilhouette(ref, layout),
    );
    colour = fitColourModel([{ image: ref, labels: placed.labels }], layout, {
      seed: 0,
      paintColours: r.paint.map((g) => g.colour ?? null),
    });
  }
  return { mesh, paint: r.paint, keypoints, colour };
}

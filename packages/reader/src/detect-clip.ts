import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Detections, FileError, Layout, type LayoutInput, writeDetections } from '@mocap/layout';
import { decodeVideo, probeVideo, type RgbImage, readPng, warpScaleShift } from '@mocap/media';
import * as tf from '@tensorflow/tfjs-core';
import { z } from 'zod';
import { initBackend } from './backend.js';
import { type Calibration, estimateCalib } from './estimate-calib.js';
import { frameToInput } from './frame-to-inputs.js';
import { decodeHeatmaps, peaksToLayout } from './heatmap-decode.js';
import { parseOptions } from './parse-options.js';
import { loadReader } from './reader-io.js';
import { fitColourModel } from './refine/colour-model.js';
import { vertexPaintLabels } from './refine/paint-labels.js';
import { backdropSilhouette, placeRestPose } from './refine/place-rest-pose.js';
import {
  type RefineClipInput,
  type RefineClipOptions,
  type RefineClipResult,
  refineClip,
} from './refine/refine-clip.js';
import { rigKeypoints } from './refine/rig-keypoints.js';
import { readSkinnedMesh } from './refine/skinned-mesh.js';
import { viewTransform } from './view-transform.js';

/** Options of {@link detectClip}. */
export const DetectOptions = z
  .object({
    /** The two-view clip. */
    clip: z.string().min(1),
    /** Folder of a saved reader (model.json + weights.bin). */
    reader: z.string().min(1),
    /** The reference frame the clip was generated from (layout size); needed for `calib: 'auto'`. */
    ref: z.string().optional(),
    /** Where to write det.npz; nothing is written when left out. */
    out: z.string().optional(),
    /** The frame layout. @default DEFAULT_LAYOUT */
    layout: z.custom<LayoutInput>().optional(),
    /** The creature's joint names; a reader trained for others is an error. */
    joints: z.array(z.string()).optional(),
    /**
     * `auto` (fit the first frame to ref.png), `identity` (the clip is the layout, at most resized), or
     * [sx, sy, tx, ty] (layout u = sx * clip u + tx). @default 'auto'
     */
    calib: z
      .union([
        z.literal('auto'),
        z.literal('identity'),
        z.tuple([z.number(), z.number(), z.number(), z.number()]),
      ])
      .default('auto'),
    /**
     * What a peak's confidence is: `peak`, the heatmap's value there; `margin`, that value minus
     * the best one farther than 5 heatmap px ({@link decodeHeatmaps}), low where a second peak
     * competes (a mirrored limb, a joint hidden in one view). On rendered wolf gaits (seeds 7, 11,
     * 12, 13; capture's mean / p95 cm) `margin` gave 0.83 / 2.45, 0.68 / 1.61, 0.77 / 2.06,
     * 0.75 / 2.03 where `peak` gave 0.82 / 2.46, 0.68 / 1.63, 0.86 / 2.41, 0.77 / 2.27. @default 'margin'
     */
    peakConf: z.enum(['peak', 'margin']).default('margin'),
    /** Frames per inference batch (two views each). @default 4 */
    batchFrames: z.number().int().positive().default(4),
    /** Stop after this many frames. */
    maxFrames: z.number().int().positive().optional(),
    /**
     * Stage 2, the model-based refinement: the creature's rigged glTF (a skinned mesh Blender
     * exported from the armature), the rig's keypoints on it (rig_info.json `keypoints` with their
     * bones' lengths, in the reader's joint order) and its paint groups (creature.json `paint`). With it, det.npz holds the refined keypoints (confidence: how
     * much of the keypoint's bone the view shows)
     * and the heatmap peaks go to a second file beside it, `<name>_heatmaps.npz` (same fields).
     */
    refine: z
      .object({
        glb: z.string().min(1),
        keypoints: z.array(
          z
            .object({
              name: z.string(),
              bone: z.string(),
              end: z.enum(['head', 'tail']),
              length: z.number().min(0),
            })
            .strict(),
        ),
        paint: z.array(z.object({ name: z.string(), bones: z.array(z.string()) }).strict()),
        /** Metres per glTF unit (Blender exports metres). @default 1 */
        unitScale: z.number().positive().default(1),
        options: z.custom<RefineClipOptions>((v) => typeof v === 'object' && v !== null).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
/** Options of {@link detectClip} as a caller writes them. */
export type DetectOptions = z.input<typeof DetectOptions>;

/** What {@link detectClip} reports while it runs. */
export type DetectEvent =
  | { phase: 'calib'; calibration: Calibration | null }
  | { phase: 'frames'; done: number; total: number }
  | { phase: 'refine'; done: number; total: number };

/** Detections plus how the clip was calibrated and which backend ran. */
export interface DetectResult {
  /** What det.npz holds: the refined keypoints with `refine`, else the heatmap peaks. */
  detections: Detections;
  /** The heatmap peaks (stage 1); the same object as `detections` without `refine`. */
  heatmaps: Detections;
  /** Where the heatmap peaks were written with `refine` and `out` (`<name>_heatmaps.npz`), else null. */
  heatmapsFile: string | null;
  calibration: Calibration | null;
  backend: string;
  /** Wall-clock seconds of the decode + read (+ refine) loop. */
  seconds: number;
  /** Seconds spent in the refinement (segmentation + fit), 0 without it. */
  refineSeconds: number;
}

/** `det.npz` -> `det_heatmaps.npz`: where {@link detectClip} keeps the heatmap peaks beside refined detections. */
export function heatmapsPath(out: string): string {
  const ext = path.extname(out);
  return path.join(path.dirname(out), `${path.basename(out, ext)}_heatmaps${ext || '.npz'}`);
}

const OP = 'detect';

/**
 * Reads a two-view clip to joints with a trained heatmap reader: the clip is calibrated against
 * ref.png (scale and shift per axis, so a generated clip of another size or framing maps to layout
 * px), every frame's two views are sampled to the reader's input, and the heatmap peaks become
 * det.npz's `front_uv`, `side_uv` (layout px), `front_conf`, `side_conf`, with `fps`, `names` and
 * `calib`.
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
  const aspect = info.width / info.height;
  const want = layout.WIDTH / layout.HEIGHT;
  if (Math.abs(aspect / want - 1) > 0.02) {
    throw new Error(
      `${OP}: ${o.clip}: the clip is ${info.width} x ${info.height} (aspect ${aspect.toFixed(3)}); a two-view clip keeps the layout's ${layout.WIDTH} x ${layout.HEIGHT} (${want.toFixed(3)}).`,
    );
  }
  const refine = o.refine ? await loadRefinement(o.refine, layout, o.joints, ref) : null;
  const backend = await initBackend();
  const { reader } = await loadReader(o.reader, o.joints ? { joints: o.joints } : {});
  const t0 = performance.now();
  try {
    const n = reader.config.inputSize;
    const m = reader.heatmapSize;
    const j = reader.config.joints.length;
    if (refine && refine.keypoints.names.join() !== reader.config.joints.join()) {
      throw new Error(
        `${OP}: ${o.reader}: the reader's joints (${reader.config.joints.join(', ')}) are not the rig's keypoints (${refine.keypoints.names.join(', ')}) that refinement fits.`,
      );
    }
    const views = [viewTransform(layout, 'front', n, m), viewTransform(layout, 'side', n, m)] as const;
    const total = o.maxFrames ? Math.min(o.maxFrames, info.frames) : info.frames;
    const front: number[] = [];
    const side: number[] = [];
    const frontConf: number[] = [];
    const sideConf: number[] = [];
    let calibration: Calibration | null = null;
    let calib: Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'> | undefined;
    const per = n * n * 3;
    const batch = new Float32Array(o.batchFrames * 2 * per);
    let inBatch = 0;
    let done = 0;
    const pending: RgbImage[] = [];
    const flush = () => {
      if (inBatch === 0) return;
      const x = tf.tensor4d(batch.subarray(0, inBatch * 2 * per), [inBatch * 2, n, n, 3]);
      const heat = reader.predict(x);
      const data = heat.dataSync() as Float32Array;
      tf.dispose([x, heat]);
      for (let f = 0; f < inBatch; f++) {
        for (const [k, t] of views.entries()) {
          const peaks = decodeHeatmaps(data, m, j, (2 * f + k) * m * m * j);
          const uv = peaksToLayout(peaks, t);
          (k === 0 ? front : side).push(...uv);
          (k === 0 ? frontConf : sideConf).push(...(o.peakConf === 'margin' ? peaks.margin : peaks.conf));
        }
      }
      done += inBatch;
      inBatch = 0;
      onEvent({ phase: 'frames', done, total });
    };
    // Stage 1 over the clip; yields each frame in layout px once its peaks are known (for stage 2).
    async function* read(): AsyncGenerator<RgbImage> {
      for await (const frame of decodeVideo(o.clip, {
        info,
        ...(o.maxFrames ? { maxFrames: o.maxFrames } : {}),
        ...(signal ? { signal } : {}),
      })) {
        if (!calib) {
          if (o.calib === 'auto') {
            calibration = estimateCalib(frame, ref!);
            calib = calibration;
          } else if (o.calib === 'identity') {
            // The clip is the layout, at most resized.
            calib = { sx: layout.WIDTH / frame.width, sy: layout.HEIGHT / frame.height, tx: 0, ty: 0 };
          } else calib = { sx: o.calib[0], sy: o.calib[1], tx: o.calib[2], ty: o.calib[3] };
          onEvent({ phase: 'calib', calibration });
        }
        for (const [k, t] of views.entries())
          frameToInput(frame, calib, t, layout, batch, (2 * inBatch + k) * per);
        if (refine) pending.push(toLayout(frame, calib, layout));
        inBatch++;
        if (inBatch === o.batchFrames) {
          flush();
          yield* pending.splice(0);
        }
      }
      flush();
      yield* pending.splice(0);
    }
    let refined: RefineClipResult | null = null;
    if (refine) {
      refined = await refineClip(
        {
          ...refine,
          layout,
          frames: read(),
          peaks: { frontUv: front, sideUv: side, frontConf, sideConf },
        },
        o.refine?.options ?? {},
        (i) => onEvent({ phase: 'refine', done: i + 1, total }),
      ).catch((err: Error) => {
        if (done === 0) throw new Error(`${OP}: ${o.clip}: no frames decoded.`, { cause: err });
        throw err;
      });
    } else for await (const _ of read());
    if (done === 0) throw new Error(`${OP}: ${o.clip}: no frames decoded.`);
    const c = calib as unknown as Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'>;
    const heatmaps: Detections = {
      names: [...reader.config.joints],
      fps: info.fps,
      frames: done,
      frontUv: Float32Array.from(front),
      sideUv: Float32Array.from(side),
      frontConf: Float32Array.from(frontConf),
      sideConf: Float32Array.from(sideConf),
      calib: Float64Array.of(c.sx, c.sy, c.tx, c.ty),
    };
    const detections: Detections = refined
      ? {
          ...heatmaps,
          frontUv: refined.frontUv,
          sideUv: refined.sideUv,
          frontConf: refined.frontConf,
          sideConf: refined.sideConf,
        }
      : heatmaps;
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
      calibration,
      backend: backend.choice,
      seconds: (performance.now() - t0) / 1000,
      refineSeconds: refined?.seconds ?? 0,
    };
  } finally {
    reader.dispose();
  }
}

/** A clip frame in layout px: itself when the calibration is the identity, else resampled through it. */
function toLayout(
  frame: RgbImage,
  c: Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'>,
  layout: Layout,
): RgbImage {
  const same =
    frame.width === layout.WIDTH &&
    frame.height === layout.HEIGHT &&
    Math.abs(c.sx - 1) < 1e-9 &&
    Math.abs(c.sy - 1) < 1e-9 &&
    c.tx === 0 &&
    c.ty === 0;
  if (same) return frame;
  return warpScaleShift(frame, [c.sx, c.sy, c.tx, c.ty], layout.WIDTH, layout.HEIGHT, layout.colours.wall);
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
    colour = fitColourModel([{ image: ref, labels: placed.labels }], layout, { seed: 0 });
  }
  return { mesh, paint: r.paint, keypoints, colour };
}

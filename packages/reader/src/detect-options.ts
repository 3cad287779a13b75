import type { LayoutInput } from '@mocap/layout';
import { z } from 'zod';
import type { RefineClipOptions } from './refine/refine-clip-options.js';

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
     * `auto` (measured on the clip's studio, frame by frame, with ref.png for a zoom the studio does
     * not show: {@link calibrateClip}), `identity` (the clip is the layout, at most resized), or
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
    /**
     * With `refine` and `calib: 'auto'`, where the studio shows no zoom: `follow` fits the rig's
     * zoom with its pose on every frame of a clip whose framing drifts (a camera that slides may
     * zoom; a still one is not looked at) and takes it out of the keypoints and the calibration;
     * `report` measures the creature's size in stage 1's peaks and records it (det.npz's report,
     * the calibration), `apply` also takes a clear change out ({@link unzoomDetections}); `follow`
     * reports as `report` where the framing holds still. The peaks' size refused every true 1-2%
     * drift zoom and took a false +2.5% from a codec-degraded clip; the fitted zoom follows them
     * (docs/benchmarks.md, issue 14). @default 'follow'
     */
    creatureZoom: z.enum(['follow', 'report', 'apply']).default('follow'),
    /** Frames per inference batch (two views each). @default 4 */
    batchFrames: z.number().int().positive().default(4),
    /** Stop after this many frames. */
    maxFrames: z.number().int().positive().optional(),
    /**
     * With `refine`: stage 1 runs in a worker thread ({@link startPeakWorker}) and
     * stage 2 here, so the inference of the next frames overlaps the refinement (same output);
     * inline when the worker fails to start. @default true with more than one core and at least
     * {@link PEAK_WORKER_MIN_FRAMES} frames
     */
    peakWorker: z.boolean().optional(),
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
        paint: z.array(
          z
            .object({
              name: z.string(),
              bones: z.array(z.string()),
              /** RGB 0-255; lets the colour model learn a group ref.png hides. */
              colour: z.tuple([z.number(), z.number(), z.number()]).optional(),
            })
            .strict(),
        ),
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

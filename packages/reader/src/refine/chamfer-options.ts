import { z } from 'zod';

/** Options of {@link ChamferObjective}; defaults in the schema. */
export const ChamferOptions = z
  .object({
    /** Joints whose rotations are free parameters; every joint when left out. */
    joints: z.array(z.string()).optional(),
    /** Surface samples per triangle (1, 4 or 7). @default 4 */
    samplesPerFace: z.union([z.literal(1), z.literal(4), z.literal(7)]).default(4),
    /** Weight of "model inside the observed masks" (distance of each visible sample to its masks). @default 1 */
    inside: z.number().min(0).default(1),
    /** Weight of "observed boundary covered by the model" (each observed boundary point to the nearest model boundary sample). @default 1 */
    cover: z.number().min(0).default(1),
    /** Weight of the paint-group channels' terms relative to the silhouette's (both inside and cover). @default 1 */
    paint: z.number().min(0).default(1),
    /** Weight of the keypoint (heatmap peak) terms, times each peak's confidence (a few dozen peaks against thousands of mask residuals). @default 10 */
    keypoints: z.number().min(0).default(10),
    /**
     * Weight of the pose prior (see {@link ChamferObjective.setPrior}): cost `0.5 w |log(q_ref^-1 q)|^2`
     * per free joint, radians; 0 turns it off. @default 0
     */
    prior: z.number().min(0).default(0),
    /**
     * Whether the rig's zoom ({@link RefinePose} `zoom`, scaled about its origin) is a parameter,
     * the last one (its log): a clip that zooms through a take the calibration cannot see. @default false
     */
    zoom: z.boolean().default(false),
    /**
     * Weight of the zoom's prior: cost `0.5 w log(zoom / zoom_ref)^2` toward the reference pose's
     * zoom ({@link ChamferObjective.setPrior}); only with `zoom`. @default 0
     */
    zoomPrior: z.number().min(0).default(0),
    /** Huber threshold on every residual, layout px. @default 10 */
    huberPx: z.number().positive().default(10),
    /**
     * The model is rasterised again for visibility only once some vertex has moved more than this
     * (px of the level) since the last rasterisation at that level; 0 rasterises at every
     * correspondence update. @default 0
     */
    rasterMovePx: z.number().min(0).default(0),
    /** A sample is visible when it lies at most this far (in px of the level) behind the z-buffer. @default 1.5 */
    depthTolerancePx: z.number().min(0).default(1.5),
  })
  .strict();
/** Options of {@link ChamferObjective} as passed in. */
export type ChamferOptions = z.input<typeof ChamferOptions>;

import { z } from 'zod';
import type { ChamferOptions } from './chamfer-options.js';

/**
 * The objective's settings for clips: paint channels at 0.3 of the silhouette (a hidden or fringed
 * paint group must not drag its limb), Huber at 3 px, a strong pull toward the previous frame's
 * pose (what no view shows otherwise drifts), heatmap peaks weighted by their confidence, and a
 * followed zoom (`followZoom`) pulled hard toward the previous frame's (a camera zooms slowly; the
 * outline's misfit jitters), and visibility rasterised again only once the model moved 1 px of
 * the level (a frame's last iterations move it less). Chosen on rendered wolf exams; the figures
 * behind each value are in docs/benchmarks.md (issues 7, 14 and 16).
 */
export const CLIP_OBJECTIVE: Readonly<ChamferOptions> = Object.freeze({
  paint: 0.3,
  huberPx: 3,
  prior: 10000,
  keypoints: 4,
  zoomPrior: 2e7,
  rasterMovePx: 1,
});

/** Options of {@link refineClip}; defaults in the schema. */
export const RefineClipOptions = z
  .object({
    /** Resolution levels (layout px per level px), coarse to fine. @default [2] */
    factors: z.array(z.number().int().positive()).min(1).default([2]),
    /** LM iterations per level on the second frame, and on every later one without `predict` (a frame stops early once no step helps). @default [10] */
    iterations: z.array(z.number().int().min(0)).default([10]),
    /** LM iterations per level on the first frame (from the placed rest pose). @default [12] */
    firstIterations: z.array(z.number().int().min(0)).default([12]),
    /**
     * The gate of the peaks of the first `firstGateFrames` frames (layout px from where the pose
     * the frame starts from puts their keypoint): a clip that does not start at rest (a segment of
     * a longer one) may want a wider one while it finds the creature. @default gatePx
     */
    firstGatePx: z.number().positive().optional(),
    /** How many frames {@link RefineClipOptions} `firstGatePx` applies to. @default 1 */
    firstGateFrames: z.number().int().min(0).default(1),
    /**
     * The first frame is also fitted with the paint channels at this weight first, then the clip's
     * objective, and that fit kept where its cost under the clip's objective is over 2% lower
     * ({@link fitFirstFrame}): a clip that starts mid-stride has a limb the clip's paint weight
     * cannot pull over from the rest pose. 0 fits it once. @default 1
     */
    firstPaint: z.number().min(0).default(1),
    /** Whether the first frame is pulled toward the placed rest pose it starts from (the prior). @default true */
    firstPrior: z.boolean().default(true),
    /** Boundary points per channel and view. @default 150 */
    maxBoundary: z.number().int().positive().default(150),
    /**
     * Heatmap peaks farther than this (layout px) from where the previous frame's pose puts their
     * keypoint are ignored (stage 1's peaks are often 20+ px off, sometimes on the wrong leg). @default 40
     */
    gatePx: z.number().positive().default(40),
    /** Peaks under this confidence are ignored. @default 0.2 */
    minConf: z.number().min(0).default(0.2),
    /**
     * A keypoint whose front-view peak has lain this many frames running on the other side of its
     * unpainted pivot joint from the model's keypoint (turned away by the gate, holding still) is tried
     * mirrored: the pivot turned about the vertical so the keypoint's sideways offset flips (the side
     * view sees both alike), fitted again with that peak let in, and kept where the frame's cost with
     * its peaks is not higher by more than `flipTolerance` ({@link flipLateral}). 0 turns it off. @default 3
     */
    flipFrames: z.number().int().min(0).default(3),
    /** The least confidence of a front peak that may start a flip (`flipFrames`). @default 0.15 */
    flipConf: z.number().min(0).default(0.15),
    /** The least sideways offset (front-view px from the pivot) of both the peak and the model's keypoint for a flip. @default 10 */
    flipMinPx: z.number().min(0).default(10),
    /**
     * The least sideways offset of both, as a share of the keypoint's distance from its pivot: a
     * keypoint turned well sideways (0.4: about 24 degrees) both ways, not a foot a little off its
     * ankle's plane. @default 0.4
     */
    flipMinShare: z.number().min(0).default(0.4),
    /**
     * A flip is kept where the frame's cost with its peaks (the mirrored one included; silhouette,
     * paint, no prior) is under the unflipped pose's times 1 + this: the outline of a head turned
     * within the chest's tells the two sides apart by a few percent at most, the peak by more. @default 0.04
     */
    flipTolerance: z.number().min(0).default(0.04),
    /** Frames a keypoint waits after a refused flip. @default 10 */
    flipCooldown: z.number().int().min(0).default(10),
    /**
     * Objective options (weights, Huber threshold, prior toward the previous frame), over
     * {@link CLIP_OBJECTIVE}. @default CLIP_OBJECTIVE
     */
    objective: z.custom<ChamferOptions>((v) => typeof v === 'object' && v !== null).optional(),
    /** Paint pixels farther than this (layout px) outside their group's box at the previous frame's pose become body. @default 25 */
    groupMarginPx: z.number().min(0).default(25),
    /** A paint group whose model shows fewer px than this in a view (at the previous frame's pose) is not looked for there. @default 400 */
    minVisiblePx: z.number().min(0).default(400),
    /** A keypoint whose bone shows at least this many px in a view gets confidence 1 there (less in proportion). @default 150 */
    visibleKeypointPx: z.number().positive().default(150),
    /**
     * A keypoint whose bone shows less than this share of its unhidden area in a view (the rest
     * behind other parts: the back's joints behind the head and chest in the front view) gets its
     * confidence scaled down in proportion; 0 turns it off. @default 0.6
     */
    visibleShare: z.number().min(0).max(1).default(0.6),
    /** The confidence of a keypoint whose bone is hidden in a view. @default 0.1 */
    minKeypointConf: z.number().min(0).max(1).default(0.1),
    /**
     * The confidence, in both views, of a keypoint both views hide (a far hind paw behind the near
     * legs from the side and behind the front legs from the front): its place is the prior's
     * extrapolation, which drifts; the solver's own bone lengths, limits and smoothness place it
     * better. @default 0
     */
    unseenKeypointConf: z.number().min(0).max(1).default(0),
    /**
     * On the clip's first this many refined frames a keypoint both views hide gets
     * `minKeypointConf`, not `unseenKeypointConf`: there its place is the pose fitted to those
     * frames themselves, before any extrapolation has drifted, and without it the solver has only
     * its smoothness priors run backwards (a far hind paw hidden at the start swung 13-19 cm
     * away). @default 3
     */
    unseenStartFrames: z.number().int().min(0).default(3),
    /** Paint pieces smaller than this (layout px) are dropped after the opening ({@link cleanLabels}). @default 40 */
    minPaintArea: z.number().int().min(0).default(40),
    /**
     * A frame whose wall shows more pixel noise than this (0-255 levels, {@link frameNoise}) is
     * box-blurred before the colour model labels it ({@link boxBlur}), wide enough to bring the
     * noise to about `denoiseTarget` (at most a 7 x 7 box): grain or a codec's block noise
     * otherwise speckles the backdrop with body labels that pull the unpainted parts (a tail, the
     * head) onto them. A render's flat wall reads 0, so clean clips are labelled as before. 0
     * turns it off. @default 2
     */
    denoiseAbove: z.number().min(0).default(2),
    /** The noise (levels) {@link RefineClipOptions} `denoiseAbove`'s blur aims at. @default 2 */
    denoiseTarget: z.number().positive().default(2),
    /**
     * Every this many frames the light on the backdrop is fitted across each view
     * ({@link backdropField}); where it is uneven (a vignette, a spotlight) the colour model sees
     * each pixel divided by the light where it is, not by one gain per channel (a vignette's dark
     * corners otherwise read as creature). 0 turns it off. @default 8
     */
    fieldEvery: z.number().int().min(0).default(8),
    /**
     * Rings of the labelled outline given back to the backdrop where a pixel is more backdrop
     * than creature ({@link unmixEdges}), in a frame whose edges are soft: blurred (the divider
     * reads wider than the layout draws it, {@link dividerWidth}: see `unmixSpan`) or box-blurred
     * against noise (`denoiseAbove`). A blur spreads the paint into the grey around
     * it, where the colour model calls it paint, and the outline grows by a pixel or two. Off
     * with `followZoom` (the outline's size is the zoom's evidence there). 0 turns it off.
     * @default 2
     */
    unmixPasses: z.number().int().min(0).default(2),
    /**
     * How much wider than `DIVIDER_PX` the divider reads (px) where {@link RefineClipOptions}
     * `unmixPasses` gives back every outline pixel that is more backdrop than creature; a
     * narrower one gives back only those with proportionally less creature in them (none at
     * `DIVIDER_PX`). @default 0.6
     */
    unmixSpan: z.number().positive().default(0.6),
    /**
     * Joints the front view barely shows in a frame (at the pose the frame starts from, their faces
     * show fewer px there than this fraction of what the side view shows, the same for every joint
     * below them, and no paint group rides them: the wolf's tail behind its body, its jaw under
     * the muzzle) keep, after that frame's fit, only the part of their rotation the side view sees,
     * about the creature's lateral axis ({@link keepSideViewSwing}): their sideways swing is not in
     * the data there. Judged frame by frame, so a tail that hides later in the clip is held too.
     * 0 turns it off. @default 0.5
     */
    sideOnlyRatio: z.number().min(0).max(1).default(0.5),
    /**
     * Until a pose is placed, a frame whose observed silhouette covers less than this fraction of
     * the placed rest pose's in either view (a clip fading in from the empty studio) is not refined:
     * its keypoints are NaN with confidence 0, and the first frame that shows the creature is the
     * clip's first for `firstIterations`, `firstPrior` and `firstGateFrames`. @default 0.5
     */
    minPlacedArea: z.number().min(0).max(1).default(0.5),
    /** Margin (layout px) around the previous frame's silhouette boxes where pixels are classified. @default 60 */
    marginPx: z.number().int().min(0).default(60),
    /**
     * From the third frame on, start the fit from the constant-velocity prediction of the last two
     * frames' poses ({@link predictRefinePose}) instead of the last pose, and run
     * `predictedIterations`; the prior still pulls toward the last pose (pulling toward the
     * prediction lost accuracy). Measured on rendered wolf exams: docs/benchmarks.md. @default true
     */
    predict: z.boolean().default(true),
    /** LM iterations per level on a frame that starts from a prediction (`predict`). @default [7] */
    predictedIterations: z.array(z.number().int().min(0)).default([7]),
    /**
     * Follow a zoom through the clip that the calibration could not see (no layout edge in view):
     * the rig's zoom is fitted with its pose on every frame, pulled toward the last frame's
     * (the objective's `zoom` and `zoomPrior`); the result's `zoom` holds it. @default false
     */
    followZoom: z.boolean().default(false),
  })
  .strict();
/** Options of {@link refineClip} as passed in. */
export type RefineClipOptions = z.input<typeof RefineClipOptions>;

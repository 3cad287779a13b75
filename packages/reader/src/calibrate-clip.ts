import type { Layout } from '@mocap/layout';
import { decodeVideo, type RgbImage, type VideoInfo } from '@mocap/media';
import type { ClipCalib } from './calib-at.js';
import { type BackdropCalib, calibFromBackdrop } from './calib-from-backdrop.js';
import { fitRefZoom, type RefZoom } from './fit-ref-zoom.js';
import type { GhostBlend } from './ghost-blend.js';
import { type BackdropFeatures, measureBackdrop } from './measure-backdrop.js';
import { type CalibAt, smoothCalibTrack } from './smooth-calib-track.js';

/** One sampled frame of {@link calibrateClip}: its calibration, or why it was skipped. */
export interface CalibSample {
  frame: number;
  /** Whether the frame's calibration is one of those the clip's is made of. */
  used: boolean;
  /** Why the frame was skipped (what was measured), when it was. */
  why?: string;
  calib?: ClipCalib;
}

/** How a clip maps onto the layout, frame by frame, and how it was found. */
export interface ClipCalibration {
  /** The clip's typical calibration (median over the frames used): det.npz `calib`. */
  calib: ClipCalib;
  /** The calibration of every frame, T x 4 (`[sx, sy, tx, ty]`): `calib` repeated unless the framing drifts. */
  frames: Float64Array;
  /** Whether the framing moves through the clip (det.npz then carries `frames` as `calib_frames`). */
  drifts: boolean;
  /**
   * How the framing changes from the first frame to the last: zoom in % per axis, the slide of the
   * frame's centre in layout px, and the largest distance any frame corner strays from where
   * `calib` puts it (layout px).
   */
  drift: { zoomX: number; zoomY: number; slideX: number; slideY: number; maxPx: number };
  /**
   * Where each axis's scale came from: `edges` (the layout's edges seen in the frame: bars, a
   * fill), `ref` (ref.png's creature on an early frame), `frame` (the frame's own size: the clip is
   * the layout resized).
   */
  scale: { x: 'edges' | 'ref' | 'frame'; y: 'edges' | 'ref' | 'frame' };
  /** The zoom fitted to ref.png and on which frame, when an axis needed it and a frame matched ref.png. */
  refZoom: (RefZoom & { frame: number }) | null;
  /** The picture inside any black bars, clip px, on the first frame used. */
  content: BackdropFeatures['content'];
  /** The frame size (upright). */
  width: number;
  height: number;
  samples: CalibSample[];
  /** How much of the frame before each frame holds, measured beside the calibration ({@link clipCalib}), and undone before reading. */
  ghost?: GhostBlend | undefined;
  /**
   * The zoom change through the clip the creature's size showed after calibration (share, first
   * frame to last), whether it passed the gate ({@link CREATURE_ZOOM}), whether it was taken out
   * and whether the refinement fitted it (`followed`: the framing drifts, `creatureZoom: 'follow'`;
   * taken out then) rather than stage 1's peaks measured it ({@link unzoomDetections}); absent when
   * not looked for.
   */
  creatureZoom?: { change: number; clear: boolean; applied: boolean; followed?: boolean } | undefined;
}

/** Options of {@link calibrateClip}. */
export interface CalibrateClipOptions {
  layout: Layout;
  /** ref.png (layout size): fits the zoom on an axis whose edges are out of view. */
  ref?: RgbImage | undefined;
  /** The clip's probe. */
  info: VideoInfo;
  /** Frames of the clip to calibrate (all, or the first `frames`). */
  frames: number;
  /** About how many frames to measure, spread through the clip. @default 24 */
  samples?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** A zoom fitted to ref.png closer to 1 than this is taken as the frame's own size (the fit's noise: ~0.1%). */
const REF_ZOOM_MIN = 0.003;
/** The least share of ref.png's creature (against the empty studio) a frame shows to give the zoom. */
const MIN_CREATURE = 0.3;
/** How many of the first frames that fit may give ref.png's zoom. */
const REF_CANDIDATES = 4;
/** A used frame further than this (layout px, any corner) from the others' trend is skipped. */
const OUTLIER_PX = 4;
/** A used frame whose corners are further than this share of the layout's width from the median calibration is skipped (a 2% drift moves them about 1-2%). */
const FAR_SHARE = 0.05;
/** The framing drifts when some frame corner moves more than this (layout px) from the typical calibration. */
const DRIFT_PX = 0.75;

const median = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) >> 1]! : 0.5 * (s[n / 2 - 1]! + s[n / 2]!);
};

/** Largest distance (layout px) between where two calibrations put the corners of a clip's picture. */
function cornerGap(a: ClipCalib, b: ClipCalib, w: number, h: number): number {
  let worst = 0;
  for (const x of [0, w]) worst = Math.max(worst, Math.abs(a.sx * x + a.tx - (b.sx * x + b.tx)));
  for (const y of [0, h]) worst = Math.max(worst, Math.abs(a.sy * y + a.ty - (b.sy * y + b.ty)));
  return worst;
}

/** The reason a clip is refused: no sampled frame fits the layout. Lists what was measured. */
export class CalibrationError extends Error {
  constructor(
    message: string,
    readonly samples: CalibSample[],
  ) {
    super(message);
    this.name = 'CalibrationError';
  }
}

/**
 * Calibrates a clip to the layout from the studio itself, robustly and through time: about
 * `samples` frames spread through the clip are measured ({@link measureBackdrop}: the divider, the
 * ground row, black bars, the layout's edges where a fill shows them) and each gets a scale and
 * shift per axis ({@link calibFromBackdrop}); an axis whose edges are out of view takes its zoom
 * from ref.png's creature on the first frames that still show it as ref.png does
 * ({@link fitRefZoom}), else the frame's own size. Frames that do not fit (a fade from a flat
 * colour, a damaged frame) or stray from the others are skipped; the rest are followed through the
 * clip ({@link smoothCalibTrack}), so a slow drift of the framing is tracked. Throws a
 * {@link CalibrationError} saying what it measured when no frame fits.
 *
 * ```ts
 * const c = await calibrateClip('clip.mp4', { layout, ref, info, frames: info.frames });
 * c.frames.subarray(4 * t, 4 * t + 4); // [sx, sy, tx, ty] of frame t
 * ```
 */
export async function calibrateClip(clip: string, o: CalibrateClipOptions): Promise<ClipCalibration> {
  const { layout, info } = o;
  const T = o.frames;
  const step = Math.max(1, Math.ceil(T / (o.samples ?? 24)));
  const measured: { frame: number; f: BackdropFeatures; c: BackdropCalib; image: RgbImage | null }[] = [];
  let t = 0;
  let kept = 0;
  for await (const image of decodeVideo(clip, {
    info,
    step,
    maxFrames: Math.ceil(T / step),
    ...(o.signal ? { signal: o.signal } : {}),
  })) {
    const f = measureBackdrop(image, layout);
    const c = calibFromBackdrop(f, layout, null);
    // The first frames that fit are kept for ref.png's zoom (the earliest that matches ref.png gives it).
    const keep = c.ok && kept < REF_CANDIDATES;
    if (keep) kept++;
    measured.push({ frame: t, f, c, image: keep ? image : null });
    t += step;
  }
  if (measured.length === 0) throw new Error(`detect: ${clip}: no frames decoded.`);
  // Axes whose edges no frame shows: ref.png's zoom, from the earliest frame that matches it.
  const fits = measured.filter((m) => m.c.ok);
  let refZoom: ClipCalibration['refZoom'] = null;
  const needRef = fits.some((m) => m.c.ok && !m.c.measured.x && !m.c.measured.y);
  if (needRef && o.ref) {
    for (const m of fits) {
      if (!m.image) continue;
      const z = fitRefZoom(
        m.image,
        o.ref,
        layout,
        m.f.divider!.at,
        m.f.ground!.at,
        layout.WIDTH / (m.f.content.x1 - m.f.content.x0),
        layout.HEIGHT / (m.f.content.y1 - m.f.content.y0),
      );
      // The frame shows the creature (at least faintly, in a fade) where and as ref.png does.
      if (z.creature >= MIN_CREATURE && z.creatureRms < 2 * z.backdropRms + 15) {
        refZoom = { ...z, frame: m.frame };
        break;
      }
    }
  }
  for (const m of measured) m.image = null;
  // ref.png's zoom replaces the frame's own size only when it is off 1 by more than the fit's noise
  // and fits clearly better (at a small frame size the fit is coarser).
  const zoom =
    refZoom && Math.abs(refZoom.zoom - 1) > REF_ZOOM_MIN && refZoom.rms < 0.95 * refZoom.rmsAtOne
      ? refZoom.zoom
      : null;
  if (zoom !== null) {
    for (const m of fits) {
      if (m.c.ok && !m.c.measured.x && !m.c.measured.y) m.c = calibFromBackdrop(m.f, layout, zoom);
    }
  }
  const samples: CalibSample[] = measured.map((m) =>
    m.c.ok ? { frame: m.frame, used: true, calib: m.c.calib } : { frame: m.frame, used: false, why: m.c.why },
  );
  const used = () => samples.filter((s) => s.used) as (CalibSample & { calib: ClipCalib })[];
  if (used().length === 0) {
    const reasons = new Map<string, number[]>();
    for (const s of samples) {
      const key = s.why!.replace(/\d+(\.\d+)?/g, '#');
      if (!reasons.has(key)) reasons.set(key, []);
      reasons.get(key)!.push(s.frame);
    }
    const first = samples[0]!;
    throw new CalibrationError(
      `detect: ${clip}: no calibration to the layout fits (${info.width} x ${info.height}, ${samples.length} frames measured: ${samples.map((s) => s.frame).join(', ')}); frame ${first.frame}: ${first.why}.${
        reasons.size > 1
          ? ` Other frames: ${[...reasons.values()]
              .slice(1)
              .map((fr) => `frame ${fr[0]}: ${samples.find((s) => s.frame === fr[0])!.why}`)
              .join('; ')}.`
          : ''
      } A two-view clip shows the studio: wall, brighter floor band below the ground row, a dark divider between the views.`,
      samples,
    );
  }
  const { width: w, height: h } = info;
  // Frames off the others' trend (a damaged frame that still shows lines) are skipped.
  if (used().length >= 3) {
    const u = used();
    const trend = smoothCalibTrack(
      u.map((s) => ({ frame: s.frame, calib: s.calib })),
      T,
      Math.max(T, 1),
    );
    const gaps = u.map((s) => {
      const f = Math.min(T - 1, s.frame);
      const at = { sx: trend[4 * f]!, sy: trend[4 * f + 1]!, tx: trend[4 * f + 2]!, ty: trend[4 * f + 3]! };
      return cornerGap(s.calib, at, w, h);
    });
    const mad = median(gaps);
    // And far from the median calibration: more than a slow drift moves a frame's corner.
    const mid: ClipCalib = {
      sx: median(u.map((s) => s.calib.sx)),
      sy: median(u.map((s) => s.calib.sy)),
      tx: median(u.map((s) => s.calib.tx)),
      ty: median(u.map((s) => s.calib.ty)),
    };
    u.forEach((s, i) => {
      const far = cornerGap(s.calib, mid, w, h);
      if (gaps[i]! > Math.max(OUTLIER_PX, 4 * mad) || far > FAR_SHARE * layout.WIDTH) {
        s.used = false;
        s.why = `${Math.max(gaps[i]!, far).toFixed(1)} layout px from the other frames' calibration`;
      }
    });
  }
  const u = used();
  const calib: ClipCalib = {
    sx: median(u.map((s) => s.calib.sx)),
    sy: median(u.map((s) => s.calib.sy)),
    tx: median(u.map((s) => s.calib.tx)),
    ty: median(u.map((s) => s.calib.ty)),
  };
  const points: CalibAt[] = u.map((s) => ({ frame: s.frame, calib: s.calib }));
  const track = smoothCalibTrack(points, T, Math.max(0.3 * T, 2.5 * step));
  let maxPx = 0;
  const at = (f: number): ClipCalib => ({
    sx: track[4 * f]!,
    sy: track[4 * f + 1]!,
    tx: track[4 * f + 2]!,
    ty: track[4 * f + 3]!,
  });
  for (let f = 0; f < T; f++) maxPx = Math.max(maxPx, cornerGap(at(f), calib, w, h));
  const drifts = maxPx > DRIFT_PX;
  const frames = drifts ? track : new Float64Array(4 * T);
  if (!drifts) for (let f = 0; f < T; f++) frames.set([calib.sx, calib.sy, calib.tx, calib.ty], 4 * f);
  const a = at(0);
  const b = at(T - 1);
  const firstUsed = measured.find((m) => m.frame === u[0]!.frame)!;
  const c0 = firstUsed.c;
  const source = (axis: 'x' | 'y'): 'edges' | 'ref' | 'frame' =>
    c0.ok && c0.measured[axis] ? 'edges' : zoom !== null ? 'ref' : 'frame';
  return {
    calib,
    frames,
    drifts,
    drift: {
      zoomX: drifts ? 100 * (b.sx / a.sx - 1) : 0,
      zoomY: drifts ? 100 * (b.sy / a.sy - 1) : 0,
      slideX: drifts ? b.sx * (w / 2) + b.tx - (a.sx * (w / 2) + a.tx) : 0,
      slideY: drifts ? b.sy * (h / 2) + b.ty - (a.sy * (h / 2) + a.ty) : 0,
      maxPx,
    },
    scale: { x: source('x'), y: source('y') },
    refZoom,
    content: firstUsed.f.content,
    width: w,
    height: h,
    samples,
  };
}

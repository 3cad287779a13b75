import type { Layout } from '@mocap/layout';
import { decodeVideo, type RgbImage, type VideoInfo } from '@mocap/media';
import type { ClipCalib } from './calib-at.js';
import { type ClipCalibration, calibrateClip } from './calibrate-clip.js';
import { type GhostBlend, ghostBlend } from './ghost-blend.js';

/** `detectClip`'s `calib`: fitted to the clip's studio and ref.png, the layout at most resized, or given. */
export type CalibMode = 'auto' | 'identity' | [number, number, number, number];

/** A clip's calibration as detect uses it: typical, per frame, and how it was found (`auto`). */
export interface ClipCalibs {
  /** The calibration {@link calibrateClip} found (`auto`), else null. */
  calibration: ClipCalibration | null;
  /** The typical calibration, det.npz `calib`. */
  calib: ClipCalib;
  /** Per frame, T x 4 `[sx, sy, tx, ty]`. */
  frames: Float64Array;
  /** How much of the previous frame each frame holds (`auto`: measured, {@link ghostBlend}), else null. */
  ghost: GhostBlend | null;
}

/** Consecutive frames from the clip's start that {@link ghostBlend} measures the ghosting on. */
const GHOST_FRAMES = 48;

/**
 * The clip's calibration for `frames` frames: `auto` measures it on the clip ({@link calibrateClip},
 * with `ref` for the zoom) and how much each frame holds of the one before ({@link ghostBlend}),
 * `identity` takes the clip as the layout at most resized, a tuple is
 * `[sx, sy, tx, ty]` as given.
 *
 * ```ts
 * const c = await clipCalib('auto', 'clip.mp4', info, info.frames, layout, ref);
 * calibAt(c.frames, 0);
 * ```
 */
export async function clipCalib(
  mode: CalibMode,
  clip: string,
  info: VideoInfo,
  frames: number,
  layout: Layout,
  ref: RgbImage | undefined,
  signal?: AbortSignal,
): Promise<ClipCalibs> {
  if (mode === 'auto') {
    if (!ref) throw new TypeError(`detect: Expected options.ref (ref.png) for calib 'auto', got none.`);
    const [calibration, ghost] = await Promise.all([
      calibrateClip(clip, { layout, ref, info, frames, signal }),
      ghostBlend(
        decodeVideo(clip, { info, maxFrames: Math.min(frames, GHOST_FRAMES), ...(signal ? { signal } : {}) }),
      ),
    ]);
    calibration.ghost = ghost;
    return { calibration, calib: calibration.calib, frames: calibration.frames, ghost };
  }
  const calib =
    mode === 'identity'
      ? { sx: layout.WIDTH / info.width, sy: layout.HEIGHT / info.height, tx: 0, ty: 0 }
      : { sx: mode[0], sy: mode[1], tx: mode[2], ty: mode[3] };
  const track = new Float64Array(4 * frames);
  for (let t = 0; t < frames; t++) track.set([calib.sx, calib.sy, calib.tx, calib.ty], 4 * t);
  return { calibration: null, calib, frames: track, ghost: null };
}

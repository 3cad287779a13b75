import type { ClipCalib } from './calib-at.js';

/** A calibration measured on one sampled frame. */
export interface CalibAt {
  frame: number;
  calib: ClipCalib;
}

const KEYS = ['sx', 'sy', 'tx', 'ty'] as const;

/**
 * Calibrations measured on a few frames, followed through a clip of `frames` frames: each of
 * sx, sy, tx, ty is a local linear fit in time (tricube weights over `bandwidth` frames) of the
 * measured ones, so a slow drift of the framing is followed and the measuring noise averaged out;
 * before the first and after the last measured frame the fit is held, not extrapolated. Returns
 * T x 4 (`[sx, sy, tx, ty]` per frame), det.npz's `calib_frames`.
 *
 * ```ts
 * const track = smoothCalibTrack([{ frame: 0, calib: a }, { frame: 60, calib: b }], 120, 48);
 * ```
 */
export function smoothCalibTrack(
  samples: readonly CalibAt[],
  frames: number,
  bandwidth: number,
): Float64Array {
  const out = new Float64Array(4 * frames);
  if (samples.length === 0)
    throw new TypeError('smoothCalibTrack: samples: expected at least one, got none.');
  const first = Math.min(...samples.map((s) => s.frame));
  const last = Math.max(...samples.map((s) => s.frame));
  const h = Math.max(bandwidth, 1e-9);
  for (let t = 0; t < frames; t++) {
    const at = Math.min(last, Math.max(first, t));
    let sw = 0;
    let st = 0;
    let stt = 0;
    const sy = [0, 0, 0, 0];
    const sty = [0, 0, 0, 0];
    for (const s of samples) {
      const d = Math.abs(s.frame - at) / h;
      if (d >= 1) continue;
      const w = (1 - d ** 3) ** 3;
      const x = s.frame - at;
      sw += w;
      st += w * x;
      stt += w * x * x;
      KEYS.forEach((k, i) => {
        sy[i]! += w * s.calib[k];
        sty[i]! += w * x * s.calib[k];
      });
    }
    if (sw === 0) {
      // No measured frame within the bandwidth: the nearest one.
      const near = samples.reduce((a, b) => (Math.abs(b.frame - at) < Math.abs(a.frame - at) ? b : a));
      KEYS.forEach((k, i) => {
        out[4 * t + i] = near.calib[k];
      });
      continue;
    }
    const den = sw * stt - st * st;
    KEYS.forEach((_, i) => {
      // The intercept at x = 0 of the weighted line (the weighted mean when the line is undetermined).
      out[4 * t + i] = den > 1e-9 * sw * sw ? (sy[i]! * stt - st * sty[i]!) / den : sy[i]! / sw;
    });
  }
  return out;
}

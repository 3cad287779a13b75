/** How a clip maps onto the layout: layout u = sx * clip u + tx, v = sy * clip v + ty. */
export interface ClipCalib {
  sx: number;
  sy: number;
  tx: number;
  ty: number;
}

/**
 * Frame `t`'s calibration from a T x 4 track (`[sx, sy, tx, ty]` per frame, det.npz's
 * `calib_frames`); the last frame's past its end.
 *
 * ```ts
 * const c = calibAt(det.calibFrames, 12);
 * ```
 */
export function calibAt(frames: Float64Array, t: number): ClipCalib {
  const i = 4 * Math.max(0, Math.min(t, frames.length / 4 - 1));
  return { sx: frames[i]!, sy: frames[i + 1]!, tx: frames[i + 2]!, ty: frames[i + 3]! };
}

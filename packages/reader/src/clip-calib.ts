import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { type Calibration, estimateCalib } from './estimate-calib.js';

/** How a clip maps onto the layout: layout u = sx * clip u + tx, v = sy * clip v + ty. */
export type ClipCalib = Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'>;

/** `detectClip`'s `calib`: fitted to ref.png, the layout at most resized, or given. */
export type CalibMode = 'auto' | 'identity' | [number, number, number, number];

/**
 * The clip's calibration from its first frame: `auto` fits it to `ref` (ref.png), `identity`
 * takes the clip as the layout at most resized, a tuple is `[sx, sy, tx, ty]` as given.
 * `calibration` is the fit (with its rms) for `auto`, else null.
 */
export function clipCalib(
  mode: CalibMode,
  first: RgbImage,
  layout: Layout,
  ref: RgbImage | undefined,
): { calibration: Calibration | null; calib: ClipCalib } {
  if (mode === 'auto') {
    if (!ref) throw new TypeError(`detect: Expected options.ref (ref.png) for calib 'auto', got none.`);
    const calibration = estimateCalib(first, ref);
    return { calibration, calib: calibration };
  }
  if (mode === 'identity')
    return {
      calibration: null,
      calib: { sx: layout.WIDTH / first.width, sy: layout.HEIGHT / first.height, tx: 0, ty: 0 },
    };
  return { calibration: null, calib: { sx: mode[0], sy: mode[1], tx: mode[2], ty: mode[3] } };
}

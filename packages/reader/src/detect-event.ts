import type { ClipCalibration } from './calibrate-clip.js';
import type { ClipNoise } from './describe-noise.js';
import type { ClipFade } from './unfade-frames.js';
import type { ViewLag } from './view-lag.js';

/** What {@link detectClip} reports while it runs. */
export type DetectEvent =
  | { phase: 'calib'; calibration: ClipCalibration | null }
  | { phase: 'frames'; done: number; total: number }
  | { phase: 'views'; fade: ClipFade; lag: ViewLag }
  /** After reading: the creature's zoom through the clip where the studio shows none (`calibration.creatureZoom`). */
  | { phase: 'zoom'; calibration: ClipCalibration }
  /** After the refinement: the wall's pixel noise and the frames box-blurred before labelling. */
  | { phase: 'noise'; noise: ClipNoise; frames: number }
  | { phase: 'refine'; done: number; total: number };

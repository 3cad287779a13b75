import type { ClipCalibration } from './calibrate-clip.js';
import type { ClipFade } from './unfade-frames.js';
import type { ViewLag } from './view-lag.js';

/** What {@link detectClip} reports while it runs. */
export type DetectEvent =
  | { phase: 'calib'; calibration: ClipCalibration | null }
  | { phase: 'frames'; done: number; total: number }
  | { phase: 'views'; fade: ClipFade; lag: ViewLag }
  /** After reading: the creature's zoom through the clip where the studio shows none (`calibration.creatureZoom`). */
  | { phase: 'zoom'; calibration: ClipCalibration }
  | { phase: 'refine'; done: number; total: number };

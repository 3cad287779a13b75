import type { ClipCalibration } from './calibrate-clip.js';
import type { ClipFade } from './unfade-frames.js';
import type { ViewLag } from './view-lag.js';

/** What {@link detectClip} reports while it runs. */
export type DetectEvent =
  | { phase: 'calib'; calibration: ClipCalibration | null }
  | { phase: 'frames'; done: number; total: number }
  | { phase: 'views'; fade: ClipFade; lag: ViewLag }
  | { phase: 'refine'; done: number; total: number };

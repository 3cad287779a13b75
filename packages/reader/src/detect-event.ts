import type { ClipCalibration } from './calibrate-clip.js';

/** What {@link detectClip} reports while it runs. */
export type DetectEvent =
  | { phase: 'calib'; calibration: ClipCalibration | null }
  | { phase: 'frames'; done: number; total: number }
  | { phase: 'refine'; done: number; total: number };

import type { Layout } from '@mocap/layout';
import type { ProxyStrip } from './proxy-strip.js';

/** A 2-D point in clip px, or null where there is none (a detection of confidence 0). */
export type Uv = [number, number] | null;

/** The two views' points of one frame, clip px, keypoint order. */
export interface ViewPoints {
  front: Uv[];
  side: Uv[];
}

/**
 * What the page gets from `GET /api/view`: a capture or exam folder read with @mocap/layout's
 * schemas, its points already in the clip's pixels. JSON (no NaN: missing points are null).
 */
export interface ViewData {
  /** `exam` when the folder holds truth.json (an exam or the demo), else `capture`. */
  kind: 'capture' | 'exam';
  folder: string;
  /** The creature folder the rig and layout came from, or null when none was found. */
  creature: string | null;
  fps: number;
  frames: number;
  /** Keypoint names (motion.json `names`). */
  names: string[];
  /** Keypoint index pairs of the skeleton drawn over the clip and the rig. */
  edges: [number, number][];
  motion: {
    bones: string[];
    trans: number[][];
    /** W, X, Y, Z per frame. */
    rootQuat: number[][];
    euler: number[][][];
    /** T x K x 3, world metres (+Z up, -Y forward). */
    joints: number[][][];
    reprojPx: number[];
    reprojMean: number;
  };
  /** det.npz's detections (per frame) and confidences (T x K per view); null without det.npz. */
  det: { points: ViewPoints[]; frontConf: number[][]; sideConf: number[][] } | null;
  /** The fitted joints projected through the layout, per frame, clip px. */
  fitted: ViewPoints[];
  /** truth.json's joints (T x K x 3) and the fitted joints' error against them, cm (T x K). */
  truth: { joints: number[][][]; errorCm: number[][] } | null;
  /**
   * The glb the rig view loads: `animation.glb` (keyed by apply) or the creature's rigged.glb,
   * posed from motion.json in the page.
   */
  rig: { url: string; animated: boolean } | null;
  /** The creature's rigged.glb (rest pose, for the page's `?rest` mode), or null without one. */
  riggedGlb: string | null;
  /** The creature's two-view layout (the cameras of ref.png and the clips). */
  layout: Layout;
  /** The frames of the clip shown on the left (per-frame images served by the viewer). */
  video: {
    file: string;
    frames: number;
    width: number;
    height: number;
    /** Whether the detections are drawn over it (false for showcase.mp4, which has them burned in). */
    overlay: boolean;
    /** Its proxy strips, served as `/strips/<k>.jpg`. */
    strip: ProxyStrip;
  } | null;
  downloads: { label: string; url: string }[];
  /** What is missing or odd, shown above the views. */
  notes: string[];
}

/** The body of `GET /api/view` when the folder cannot be shown. */
export interface ViewError {
  error: string;
}

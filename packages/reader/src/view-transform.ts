import type { Layout } from '@mocap/layout';
import { z } from 'zod';

/** The two views of a frame. */
export const ViewName = z.enum(['front', 'side']);
/** `front` or `side`. */
export type ViewName = z.infer<typeof ViewName>;

/**
 * How one view of the layout maps to the reader's square input and its heatmaps: the view's
 * columns `[x0, x0 + width)` of the frame are padded to a `side` x `side` square (centred, with
 * the backdrop grey), resized to `inputSize`, and the model answers at `heatmapSize`.
 * Coordinates are continuous (pixel i spans [i, i + 1)) everywhere.
 */
export interface ViewTransform {
  view: ViewName;
  /** First frame column of the view. */
  x0: number;
  /** View width and height in layout px. */
  width: number;
  height: number;
  /** Side of the padded square in layout px. */
  side: number;
  /** Padding before the view's first column / row inside the square, layout px. */
  padLeft: number;
  padTop: number;
  /** Model input size in px (square). */
  inputSize: number;
  /** Heatmap size in px (square). */
  heatmapSize: number;
}

/**
 * The transform of one view for a model with the given input and heatmap sizes.
 *
 * ```ts
 * const t = viewTransform(DEFAULT_LAYOUT, 'front', 256, 64); // 420 x 720 -> 720 square -> 256
 * ```
 */
export function viewTransform(
  layout: Layout,
  view: ViewName,
  inputSize: number,
  heatmapSize: number,
): ViewTransform {
  const x0 = view === 'front' ? 0 : layout.W_FRONT;
  const width = view === 'front' ? layout.W_FRONT : layout.W_SIDE;
  const height = layout.HEIGHT;
  const side = Math.max(width, height);
  return {
    view,
    x0,
    width,
    height,
    side,
    padLeft: Math.floor((side - width) / 2),
    padTop: Math.floor((side - height) / 2),
    inputSize,
    heatmapSize,
  };
}

/** Layout px (full-frame u, v) to heatmap px (continuous). */
export function layoutToHeatmap(t: ViewTransform, u: number, v: number): [number, number] {
  const k = t.heatmapSize / t.side;
  return [(u - t.x0 + t.padLeft) * k, (v + t.padTop) * k];
}

/** Heatmap px (continuous) to layout px (full-frame u, v): the inverse of {@link layoutToHeatmap}. */
export function heatmapToLayout(t: ViewTransform, x: number, y: number): [number, number] {
  const k = t.side / t.heatmapSize;
  return [x * k + t.x0 - t.padLeft, y * k - t.padTop];
}

/** Layout px to model-input px (continuous). */
export function layoutToInput(t: ViewTransform, u: number, v: number): [number, number] {
  const k = t.inputSize / t.side;
  return [(u - t.x0 + t.padLeft) * k, (v + t.padTop) * k];
}

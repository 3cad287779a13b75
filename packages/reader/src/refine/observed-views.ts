import type { Layout } from '@mocap/layout';
import { createDistanceScratch, distanceTransform } from './distance-transform.js';
import { LABEL_GROUP0 } from './paint-labels.js';

/**
 * What the refinement compares against, at one resolution level: per channel (0: the
 * silhouette, every label but the backdrop; 1 + g: paint group g) the distance in target px to
 * the nearest observed pixel of that channel, and a subsample of each channel's boundary pixels
 * (layout px), per view.
 */
export interface ObservedViews {
  /** Layout px per target px. */
  factor: number;
  width: number;
  height: number;
  sideStart: number;
  /** 1 + number of paint groups. */
  channels: number;
  /** Per channel: distance to the channel's nearest pixel (target px), width x height. */
  distance: Float32Array[];
  /** Per channel and view (index `2 * channel + view`): boundary points, x, y pairs in layout px. */
  boundary: Float64Array[];
}

/** Whether label `l` belongs to channel `c` (0: silhouette, 1 + g: group g). */
export function inChannel(l: number, c: number): boolean {
  return c === 0 ? l !== 0 : l === LABEL_GROUP0 + c - 1;
}

/**
 * Builds {@link ObservedViews} from a full-frame label image (one label per layout px: 0 backdrop,
 * 1 body, 2 + g paint group g; e.g. {@link segmentImage}'s output) at `1 / factor` resolution (the
 * centre pixel of each block), keeping at most `maxBoundary` boundary points per channel and view.
 *
 * ```ts
 * const observed = observeLabels(labels, layout, groups.length, 4);
 * ```
 */
export function observeLabels(
  labels: Uint8Array,
  layout: Layout,
  groups: number,
  factor = 1,
  maxBoundary = 150,
): ObservedViews {
  if (labels.length !== layout.WIDTH * layout.HEIGHT) {
    throw new RangeError(
      `observeLabels: expected ${layout.WIDTH} x ${layout.HEIGHT} labels (layout px), got ${labels.length}.`,
    );
  }
  const width = Math.ceil(layout.WIDTH / factor);
  const height = Math.ceil(layout.HEIGHT / factor);
  const sideStart = Math.round(layout.W_FRONT / factor);
  const small = new Uint8Array(width * height);
  const half = Math.floor(factor / 2);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(layout.HEIGHT - 1, y * factor + half);
    for (let x = 0; x < width; x++) {
      small[y * width + x] = labels[sy * layout.WIDTH + Math.min(layout.WIDTH - 1, x * factor + half)];
    }
  }
  const channels = 1 + groups;
  const scratch = createDistanceScratch(Math.max(width, height));
  const mask = new Uint8Array(width * height);
  const distance: Float32Array[] = [];
  const boundary: Float64Array[] = [];
  for (let c = 0; c < channels; c++) {
    for (let i = 0; i < mask.length; i++) mask[i] = inChannel(small[i], c) ? 1 : 0;
    const d = new Float32Array(width * height);
    distanceTransform(d, mask, width, height, 0, sideStart, scratch);
    distanceTransform(d, mask, width, height, sideStart, width, scratch);
    distance.push(d);
    for (const [x0, x1] of [
      [0, sideStart],
      [sideStart, width],
    ] as const) {
      const pts: number[] = [];
      for (let y = 0; y < height; y++) {
        for (let x = x0; x < x1; x++) {
          const i = y * width + x;
          if (!mask[i]) continue;
          const edge =
            x === x0 ||
            x === x1 - 1 ||
            y === 0 ||
            y === height - 1 ||
            !mask[i - 1] ||
            !mask[i + 1] ||
            !mask[i - width] ||
            !mask[i + width];
          if (edge) pts.push((x + 0.5) * factor, (y + 0.5) * factor);
        }
      }
      const n = pts.length / 2;
      const step = Math.max(1, n / maxBoundary);
      const keep = Math.min(n, Math.floor(n / step));
      const out = new Float64Array(keep * 2);
      for (let k = 0; k < keep; k++) {
        const j = Math.floor(k * step);
        out[2 * k] = pts[2 * j];
        out[2 * k + 1] = pts[2 * j + 1];
      }
      boundary.push(out);
    }
  }
  return { factor, width, height, sideStart, channels, distance, boundary };
}

import type { Layout } from '@mocap/layout';
import { createDistanceScratch, distanceTransform, type PixelRect } from './distance-transform.js';
import { LABEL_GROUP0 } from './paint-labels.js';
import { pixelRects } from './pixel-rects.js';

/**
 * What the refinement compares against, at one resolution level: per channel (0: the
 * silhouette, every label but the backdrop; 1 + g: paint group g) the distance in target px to
 * the nearest observed pixel of that channel, and a subsample of each channel's boundary pixels
 * (layout px), per view. Distances are computed inside each view's `crop` (the creature's
 * bounding box plus a margin); the objective extends them beyond it by the distance to the crop.
 */
export interface ObservedViews {
  /** Layout px per target px. */
  factor: number;
  width: number;
  height: number;
  sideStart: number;
  /** 1 + number of paint groups. */
  channels: number;
  /** Per channel and view (index `2 * channel + view`): where `distance` is valid (target px), the channel's bounding box plus a margin; empty (x0 >= x1) when the channel is absent there. */
  crop: PixelRect[];
  /** Per channel and view (index `2 * channel + view`): whether the channel has any pixel there. */
  present: Uint8Array;
  /** Per channel: distance to the channel's nearest pixel (target px), width x height, valid inside `crop`. */
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
 * Pass the previous frame's result as `into` to reuse its buffers. With `rects`, only the pixels
 * inside them are read: every label but the backdrop must lie in them (as when the segmentation
 * was limited to them).
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
  into?: ObservedViews,
  rects: readonly PixelRect[] | null = null,
): ObservedViews {
  if (labels.length !== layout.WIDTH * layout.HEIGHT) {
    throw new RangeError(
      `observeLabels: expected ${layout.WIDTH} x ${layout.HEIGHT} labels (layout px), got ${labels.length}.`,
    );
  }
  const width = Math.ceil(layout.WIDTH / factor);
  const height = Math.ceil(layout.HEIGHT / factor);
  const sideStart = Math.round(layout.W_FRONT / factor);
  const channels = 1 + groups;
  const reuse = into && into.width === width && into.height === height && into.channels === channels;
  const small = factor === 1 ? labels : (reuse && scratchLabels.get(into)) || new Uint8Array(width * height);
  // the target px whose blocks meet the rectangles (every label lies in them; the rest is backdrop)
  const scaled = rects
    ? rects.map((r) => ({ x0: r.x0 / factor, x1: r.x1 / factor, y0: r.y0 / factor, y1: r.y1 / factor }))
    : null;
  const blocks = pixelRects(scaled, width, height);
  if (factor !== 1) {
    const half = Math.floor(factor / 2);
    if (rects) small.fill(0);
    for (const r of blocks) {
      for (let y = r.y0; y < r.y1; y++) {
        const row = Math.min(layout.HEIGHT - 1, y * factor + half) * layout.WIDTH;
        for (let x = r.x0; x < r.x1; x++)
          small[y * width + x] = labels[row + Math.min(layout.WIDTH - 1, x * factor + half)];
      }
    }
  }
  const crop = channelBoxes(small, width, height, sideStart, channels, blocks);
  const present = new Uint8Array(2 * channels);
  const distance = reuse
    ? into.distance
    : Array.from({ length: channels }, () => new Float32Array(width * height));
  const boundary: Float64Array[] = [];
  const mask = (reuse && scratchMask.get(into)) || new Uint8Array(width * height);
  const scratch = createDistanceScratch(Math.max(width, height));
  for (let c = 0; c < channels; c++) {
    const want = LABEL_GROUP0 + c - 1;
    for (let view = 0; view < 2; view++) {
      const r = crop[2 * c + view];
      const pts: number[] = [];
      for (let y = r.y0; y < r.y1; y++) {
        const o = y * width;
        if (c === 0) for (let x = r.x0; x < r.x1; x++) mask[o + x] = small[o + x] !== 0 ? 1 : 0;
        else for (let x = r.x0; x < r.x1; x++) mask[o + x] = small[o + x] === want ? 1 : 0;
      }
      for (let y = r.y0; y < r.y1; y++) {
        for (let x = r.x0; x < r.x1; x++) {
          const i = y * width + x;
          if (!mask[i]) continue;
          const edge =
            x === r.x0 ||
            x === r.x1 - 1 ||
            y === r.y0 ||
            y === r.y1 - 1 ||
            !mask[i - 1] ||
            !mask[i + 1] ||
            !mask[i - width] ||
            !mask[i + width];
          if (edge) pts.push((x + 0.5) * factor, (y + 0.5) * factor);
        }
      }
      present[2 * c + view] = pts.length ? 1 : 0;
      if (pts.length) distanceTransform(distance[c], mask, width, height, r, scratch);
      boundary.push(subsample(pts, maxBoundary));
    }
  }
  const out: ObservedViews = {
    factor,
    width,
    height,
    sideStart,
    channels,
    crop,
    present,
    distance,
    boundary,
  };
  if (factor !== 1) scratchLabels.set(out, small);
  scratchMask.set(out, mask);
  return out;
}

const scratchLabels = new WeakMap<ObservedViews, Uint8Array>();
const scratchMask = new WeakMap<ObservedViews, Uint8Array>();

/**
 * Per channel and view, the bounding box of the channel's pixels (those inside `blocks`) grown by
 * a quarter of the silhouette's size in that view (at least 4 px), clipped to the view.
 */
function channelBoxes(
  l: Uint8Array,
  w: number,
  h: number,
  sideStart: number,
  channels: number,
  blocks: readonly PixelRect[],
): PixelRect[] {
  const box = new Int32Array(8 * channels); // x0, x1, y0, y1 per (channel, view)
  for (let k = 0; k < 2 * channels; k++) box.set([w, 0, h, 0], 4 * k);
  for (const r of blocks) {
    for (let y = r.y0; y < r.y1; y++) {
      const o = y * w;
      for (let x = r.x0; x < r.x1; x++) {
        const v = l[o + x];
        if (v === 0) continue;
        const view = x < sideStart ? 0 : 1;
        const c = v >= LABEL_GROUP0 ? v - LABEL_GROUP0 + 1 : 0;
        grow(box, 4 * view, x, y);
        if (c > 0 && c < channels) grow(box, 4 * (2 * c + view), x, y);
      }
    }
  }
  const out: PixelRect[] = [];
  for (let k = 0; k < 2 * channels; k++) {
    const view = k % 2;
    const lo = view === 0 ? 0 : sideStart;
    const hi = view === 0 ? sideStart : w;
    const b = 4 * k;
    if (box[b] >= box[b + 1]) {
      out.push({ x0: lo, x1: lo, y0: 0, y1: 0 });
      continue;
    }
    const s = 4 * view; // the silhouette's box in this view sets the margin
    const m = Math.max(4, Math.round(0.25 * Math.max(box[s + 1] - box[s], box[s + 3] - box[s + 2])));
    out.push({
      x0: Math.max(lo, box[b] - m),
      x1: Math.min(hi, box[b + 1] + m),
      y0: Math.max(0, box[b + 2] - m),
      y1: Math.min(h, box[b + 3] + m),
    });
  }
  return out;
}

function grow(box: Int32Array, b: number, x: number, y: number): void {
  if (x < box[b]) box[b] = x;
  if (x >= box[b + 1]) box[b + 1] = x + 1;
  if (y < box[b + 2]) box[b + 2] = y;
  if (y >= box[b + 3]) box[b + 3] = y + 1;
}

function subsample(pts: number[], max: number): Float64Array {
  const n = pts.length / 2;
  const step = Math.max(1, n / max);
  const keep = Math.min(n, Math.floor(n / step));
  const out = new Float64Array(keep * 2);
  for (let k = 0; k < keep; k++) {
    const j = Math.floor(k * step);
    out[2 * k] = pts[2 * j];
    out[2 * k + 1] = pts[2 * j + 1];
  }
  return out;
}

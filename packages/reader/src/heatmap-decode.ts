import { heatmapToLayout, type ViewTransform } from './view-transform.js';

/** Peaks of one image's heatmaps: continuous heatmap coordinates and a confidence per joint. */
export interface HeatmapPeaks {
  /** x, y per joint, continuous heatmap px (pixel i spans [i, i + 1)). */
  xy: Float32Array;
  /** The peak value per joint, clamped to [0, 1]. */
  conf: Float32Array;
  /**
   * The peak value minus the highest value farther than `marginRadius` heatmap px from the peak,
   * clamped to [0, 1]: low where a second peak competes (a mirrored limb, a joint hidden in one
   * view), so it flags wrong peaks better than `conf` does.
   */
  margin: Float32Array;
}

const MAX_STEP = 0.75;
/** Default radius, heatmap px, outside which a competing peak lowers `margin` (2.5 sigma of the targets). */
const MARGIN_RADIUS = 5;

/** 1D parabola vertex offset through three samples; 0 when they do not bend down. */
function parabola(a: number, b: number, c: number): number {
  const d = a - 2 * b + c;
  if (!(d < 0)) return 0;
  return Math.max(-MAX_STEP, Math.min(MAX_STEP, (0.5 * (a - c)) / d));
}

/**
 * Finds each joint's peak in one image's heatmaps (`size` x `size` x J, HWC as a tfjs NHWC slice)
 * and refines it to sub-pixel with a second-order Taylor step on the log-heatmap around the
 * argmax (exact for a Gaussian peak, including rotated ones); where the log is undefined or the
 * surface does not bend down it falls back to a parabola per axis on the raw values.
 *
 * Each peak also gets a `margin` over the best value farther than `marginRadius` px from it.
 *
 * ```ts
 * const { xy, conf, margin } = decodeHeatmaps(data, 64, 17, 0);
 * ```
 */
export function decodeHeatmaps(
  data: ArrayLike<number>,
  size: number,
  joints: number,
  offset = 0,
  marginRadius = MARGIN_RADIUS,
): HeatmapPeaks {
  const xy = new Float32Array(joints * 2);
  const conf = new Float32Array(joints);
  const margin = new Float32Array(joints);
  const r2 = marginRadius * marginRadius;
  const at = (x: number, y: number, j: number) => data[offset + (y * size + x) * joints + j] as number;
  for (let j = 0; j < joints; j++) {
    let best = -Infinity;
    let bx = 0;
    let by = 0;
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const h = at(x, y, j);
        if (h > best) {
          best = h;
          bx = x;
          by = y;
        }
      }
    }
    let ox = 0;
    let oy = 0;
    const inX = bx > 0 && bx < size - 1;
    const inY = by > 0 && by < size - 1;
    if (inX && inY) {
      const l = (dx: number, dy: number) => Math.log(at(bx + dx, by + dy, j));
      const v = [l(-1, -1), l(0, -1), l(1, -1), l(-1, 0), l(0, 0), l(1, 0), l(-1, 1), l(0, 1), l(1, 1)];
      if (v.every(Number.isFinite)) {
        const [a, b, c, d, e, f, g, h, i] = v as number[];
        const gx = 0.5 * (f - d);
        const gy = 0.5 * (h - b);
        const hxx = f - 2 * e + d;
        const hyy = h - 2 * e + b;
        const hxy = 0.25 * (i - c - g + a);
        const det = hxx * hyy - hxy * hxy;
        if (hxx < 0 && det > 0) {
          ox = -(hyy * gx - hxy * gy) / det;
          oy = -(hxx * gy - hxy * gx) / det;
        }
      }
    }
    if (ox === 0 && oy === 0) {
      if (inX) ox = parabola(at(bx - 1, by, j), best, at(bx + 1, by, j));
      if (inY) oy = parabola(at(bx, by - 1, j), best, at(bx, by + 1, j));
    }
    xy[2 * j] = bx + 0.5 + Math.max(-MAX_STEP, Math.min(MAX_STEP, ox));
    xy[2 * j + 1] = by + 0.5 + Math.max(-MAX_STEP, Math.min(MAX_STEP, oy));
    conf[j] = Math.max(0, Math.min(1, best));
    let second = 0;
    for (let y = 0; y < size; y++) {
      const dy2 = (y - by) * (y - by);
      for (let x = 0; x < size; x++) {
        if ((x - bx) * (x - bx) + dy2 > r2) second = Math.max(second, at(x, y, j));
      }
    }
    margin[j] = Math.max(0, Math.min(1, best - second));
  }
  return { xy, conf, margin };
}

/**
 * Maps heatmap peaks of one view back through the resize and the pad-to-square to full-frame
 * layout px: u, v per joint.
 *
 * ```ts
 * const uv = peaksToLayout(decodeHeatmaps(data, 64, 17), viewTransform(layout, 'side', 256, 64));
 * ```
 */
export function peaksToLayout(peaks: HeatmapPeaks, t: ViewTransform): Float32Array {
  const uv = new Float32Array(peaks.xy.length);
  for (let j = 0; j < peaks.xy.length / 2; j++) {
    const [u, v] = heatmapToLayout(t, peaks.xy[2 * j]!, peaks.xy[2 * j + 1]!);
    uv[2 * j] = u;
    uv[2 * j + 1] = v;
  }
  return uv;
}

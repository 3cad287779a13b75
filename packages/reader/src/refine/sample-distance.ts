import type { ObservedViews } from './observed-views.js';

/**
 * Bilinear sample of a distance map at continuous pixel-grid coordinates (pixel centres at
 * integers) inside the view's crop; beyond the crop, the distance at the nearest crop point plus
 * the distance to it. Writes the gradient into `grad`; `Infinity` when the channel is absent.
 */
export function sampleDistance(
  grad: Float64Array,
  obs: ObservedViews,
  c: number,
  view: number,
  x: number,
  y: number,
): number {
  if (!obs.present[2 * c + view]) return Number.POSITIVE_INFINITY;
  const r = obs.crop[2 * c + view];
  const d = obs.distance[c];
  const cx = Math.min(Math.max(x, r.x0), r.x1 - 1 - 1e-9);
  const cy = Math.min(Math.max(y, r.y0), r.y1 - 1 - 1e-9);
  const ix = Math.floor(cx);
  const iy = Math.floor(cy);
  const fx = cx - ix;
  const fy = cy - iy;
  const w = obs.width;
  const i = iy * w + ix;
  const d00 = d[i];
  const d10 = d[i + 1];
  const d01 = d[i + w];
  const d11 = d[i + w + 1];
  grad[0] = cx === x ? (1 - fy) * (d10 - d00) + fy * (d11 - d01) : 0;
  grad[1] = cy === y ? (1 - fx) * (d01 - d00) + fx * (d11 - d10) : 0;
  let out = (1 - fy) * ((1 - fx) * d00 + fx * d10) + fy * ((1 - fx) * d01 + fx * d11);
  const ex = x - cx;
  const ey = y - cy;
  if (ex !== 0 || ey !== 0) {
    const e = Math.hypot(ex, ey);
    out += e;
    grad[0] += ex / e;
    grad[1] += ey / e;
  }
  return out;
}

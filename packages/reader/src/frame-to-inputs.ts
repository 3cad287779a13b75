import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import type { Calibration } from './estimate-calib.js';
import type { ViewTransform } from './view-transform.js';

/** Per output index: clip pixel indices and their area weights; the rest of the weight is wall. */
interface Taps {
  start: Int32Array;
  count: Int32Array;
  idx: Int32Array;
  w: Float32Array;
  /** Sum of the weights on clip pixels per output index (1 - wall share). */
  sum: Float32Array;
}

/**
 * Area taps along one axis: output cell i covers square coordinates [i c, (i + 1) c); minus the
 * padding that is layout [lo, hi) of the view; mapped into the clip by clip = (layout - t) / s.
 */
function areaTaps(
  n: number,
  cell: number,
  pad: number,
  offset: number,
  lo: number,
  hi: number,
  s: number,
  t: number,
  size: number,
): Taps {
  const start = new Int32Array(n);
  const count = new Int32Array(n);
  const sum = new Float32Array(n);
  const idx: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < n; i++) {
    // The cell in layout coordinates, clipped to the view.
    const a = Math.max(i * cell - pad + offset, lo);
    const b = Math.min((i + 1) * cell - pad + offset, hi);
    start[i] = idx.length;
    if (b > a) {
      const ca = Math.max((a - t) / s, 0);
      const cb = Math.min((b - t) / s, size);
      for (let k = Math.floor(ca); k < Math.ceil(cb); k++) {
        const overlap = (Math.min(cb, k + 1) - Math.max(ca, k)) * s;
        if (overlap <= 1e-9) continue;
        idx.push(k);
        w.push(overlap / cell);
        sum[i]! += overlap / cell;
      }
    }
    count[i] = idx.length - start[i]!;
  }
  return { start, count, idx: Int32Array.from(idx), w: Float32Array.from(w), sum };
}

/** The horizontal pass's rows, reused from call to call (every value read is written first). */
let scratch = new Float32Array(0);
/** Taps of the last few (axis, view, calibration) combinations: a clip reuses the same ones every frame. */
const tapCache = new Map<string, Taps>();

function cachedTaps(...args: Parameters<typeof areaTaps>): Taps {
  const key = args.join(',');
  let taps = tapCache.get(key);
  if (!taps) {
    if (tapCache.size >= 16) tapCache.clear();
    taps = areaTaps(...args);
    tapCache.set(key, taps);
  }
  return taps;
}

/**
 * Samples one view's model input straight from a clip frame with an area filter: each input pixel
 * averages the clip pixels under the layout area it covers, mapped through the calibration (layout
 * u = sx * clip u + tx; axis-aligned, so the filter is separable). Parts of a cell in the square's
 * padding or outside the clip count as the wall colour. Writes N x N x 3 floats in [0, 1] at
 * `offset` of `out`. For a clip already in the layout this equals training's pad-to-square + area
 * resize.
 *
 * ```ts
 * frameToInput(frame, calib, viewTransform(layout, 'side', 256, 64), layout, out, 0);
 * ```
 */
export function frameToInput(
  frame: RgbImage,
  calib: Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'>,
  t: ViewTransform,
  layout: Layout,
  out: Float32Array,
  offset: number,
): void {
  const n = t.inputSize;
  const cell = t.side / n;
  const { width: w, height: h, data } = frame;
  const xs = cachedTaps(n, cell, t.padLeft, t.x0, t.x0, t.x0 + t.width, calib.sx, calib.tx, w);
  const ys = cachedTaps(n, cell, t.padTop, 0, 0, t.height, calib.sy, calib.ty, h);
  // Rows the vertical taps read.
  let y0 = h;
  let y1 = -1;
  for (let k = 0; k < ys.idx.length; k++) {
    y0 = Math.min(y0, ys.idx[k]!);
    y1 = Math.max(y1, ys.idx[k]!);
  }
  const rows = Math.max(0, y1 - y0 + 1);
  if (scratch.length < rows * n * 3) scratch = new Float32Array(rows * n * 3);
  const tmp = scratch;
  const xStart = xs.start;
  const xCount = xs.count;
  const xIdx = xs.idx;
  const xW = xs.w;
  for (let r = 0; r < rows; r++) {
    const src = (y0 + r) * w * 3;
    for (let j = 0; j < n; j++) {
      let a = 0;
      let b = 0;
      let c = 0;
      for (let k = xStart[j]!, e = k + xCount[j]!; k < e; k++) {
        const p = src + xIdx[k]! * 3;
        const wt = xW[k]!;
        a += data[p]! * wt;
        b += data[p + 1]! * wt;
        c += data[p + 2]! * wt;
      }
      const o = (r * n + j) * 3;
      tmp[o] = a;
      tmp[o + 1] = b;
      tmp[o + 2] = c;
    }
  }
  const [wr, wg, wb] = layout.colours.wall;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let a = 0;
      let b = 0;
      let c = 0;
      for (let k = ys.start[i]!, e = k + ys.count[i]!; k < e; k++) {
        const p = ((ys.idx[k]! - y0) * n + j) * 3;
        const wt = ys.w[k]!;
        a += tmp[p]! * wt;
        b += tmp[p + 1]! * wt;
        c += tmp[p + 2]! * wt;
      }
      const wall = 1 - ys.sum[i]! * xs.sum[j]!;
      const o = offset + (i * n + j) * 3;
      out[o] = (a + wall * wr!) / 255;
      out[o + 1] = (b + wall * wg!) / 255;
      out[o + 2] = (c + wall * wb!) / 255;
    }
  }
}

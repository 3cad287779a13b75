import { ViewProjection } from '@mocap/layout';
import type { CreatureInfo } from './creature-info.js';
import type { FitData } from './fit-objective.js';
import type { FitState } from './fit-state.js';

/** Robust cost of one 2D residual (Cauchy at `s` px, unit weight). */
function rho(du: number, dv: number, s: number): number {
  return Math.log1p((du * du + dv * dv) / (s * s));
}

/**
 * Detects and undoes left/right label swaps, per frame and view: for every swap unit of the
 * creature (a paint group and its mirror), the detections are compared, as labelled and
 * swapped, with the joints predicted for the frame: from the neighbouring frames of `st` (a
 * line through three on each side; `predict` 'neighbours', for a frame-wise fit that a
 * swapped frame has dragged along) or the frame's own joints in `st` (`predict` 'fit', for a
 * smooth whole-clip fit, which a swapped frame cannot drag and which follows a fast gait
 * more closely than a line). A clearly better swapped reading (robust cost under 70%) is
 * taken, in place in `data`. Returns how many (frame, unit) swaps were undone per view.
 */
export function fixSwaps(
  data: FitData,
  st: FitState,
  info: CreatureInfo,
  scale = 6,
  predict: 'neighbours' | 'fit' = 'neighbours',
): { front: number; side: number } {
  const proj = new ViewProjection(data.layout);
  const fixed = { front: 0, side: 0 };
  for (const view of ['front', 'side'] as const) {
    for (let f = 0; f < data.t; f++) {
      fixed[view] += fixFrameSwaps(data, st.x, info, scale, predict === 'fit', view === 'front', proj, f);
    }
  }
  return fixed;
}

/**
 * {@link fixSwaps} of frame f in one view: undoes its clearly swapped units in place and
 * returns how many (a function of its own: it is optimised after a few frames).
 */
function fixFrameSwaps(
  data: FitData,
  x: Float64Array,
  info: CreatureInfo,
  scale: number,
  fromFit: boolean,
  front: boolean,
  proj: ViewProjection,
  f: number,
): number {
  const { t, k } = data;
  const uv = front ? data.front : data.side;
  const conf = front ? data.frontConf : data.sideConf;
  let undone = 0;
  for (const [a, b] of info.swapUnits) {
    let keep = 0;
    let swap = 0;
    let used = 0;
    for (let q = 0; q < a.length; q++) {
      const ja = a[q] as number;
      const jb = b[q] as number;
      const ia = f * k + ja;
      const ib = f * k + jb;
      if (!((conf[ia] as number) > 0 && (conf[ib] as number) > 0)) continue;
      used++;
      // The predicted joints seen in this view: column, then row.
      const va = proj.row(predicted(x, t, k, f, ja, 2, fromFit));
      const ua = front
        ? proj.frontU(predicted(x, t, k, f, ja, 0, fromFit))
        : proj.sideU(predicted(x, t, k, f, ja, 1, fromFit));
      const vb = proj.row(predicted(x, t, k, f, jb, 2, fromFit));
      const ub = front
        ? proj.frontU(predicted(x, t, k, f, jb, 0, fromFit))
        : proj.sideU(predicted(x, t, k, f, jb, 1, fromFit));
      const oua = uv[2 * ia] as number;
      const ova = uv[2 * ia + 1] as number;
      const oub = uv[2 * ib] as number;
      const ovb = uv[2 * ib + 1] as number;
      keep += rho(oua - ua, ova - va, scale) + rho(oub - ub, ovb - vb, scale);
      swap += rho(oub - ua, ovb - va, scale) + rho(oua - ub, ova - vb, scale);
    }
    if (used === 0 || !(swap < 0.7 * keep && keep - swap > 2 * used)) continue;
    for (let q = 0; q < a.length; q++) {
      const ia = f * k + (a[q] as number);
      const ib = f * k + (b[q] as number);
      for (let c = 0; c < 2; c++) {
        const tmp = uv[2 * ia + c] as number;
        uv[2 * ia + c] = uv[2 * ib + c] as number;
        uv[2 * ib + c] = tmp;
      }
      const tc = conf[ia] as number;
      conf[ia] = conf[ib] as number;
      conf[ib] = tc;
    }
    undone++;
  }
  return undone;
}

/**
 * Coordinate c of joint j predicted for frame f of the keypoints `x` (T x K x 3): its own
 * (`fromFit`), else a straight line fitted to up to three frames on each side (their mean
 * inside the clip, an extrapolation at its ends).
 */
function predicted(
  x: Float64Array,
  t: number,
  k: number,
  f: number,
  j: number,
  c: number,
  fromFit: boolean,
): number {
  if (fromFit) return x[(f * k + j) * 3 + c] as number;
  let n = 0;
  let st = 0;
  let sx = 0;
  let stt = 0;
  let stx = 0;
  for (let g = Math.max(0, f - 3); g <= Math.min(t - 1, f + 3); g++) {
    if (g === f) continue;
    const v = x[(g * k + j) * 3 + c] as number;
    const d = g - f;
    n++;
    st += d;
    sx += v;
    stt += d * d;
    stx += d * v;
  }
  if (n === 0) return x[(f * k + j) * 3 + c] as number;
  const den = n * stt - st * st;
  // Value of the line at d = 0 (its intercept).
  return den > 1e-12 ? (sx * stt - st * stx) / den : sx / n;
}

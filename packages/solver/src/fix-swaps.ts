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
  const { t, k } = data;
  const proj = new ViewProjection(data.layout);
  const x = st.x;
  const fixed = { front: 0, side: 0 };
  // The joints predicted for frame f from its neighbours: a straight line fitted to up to three
  // frames on each side (their mean inside the clip, an extrapolation at its ends).
  const pred = (f: number, j: number, c: number): number => {
    if (predict === 'fit') return x[(f * k + j) * 3 + c] as number;
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
  };
  for (const view of ['front', 'side'] as const) {
    const uv = view === 'front' ? data.front : data.side;
    const conf = view === 'front' ? data.frontConf : data.sideConf;
    const project = (f: number, j: number): [number, number] => {
      const v = proj.row(pred(f, j, 2));
      return view === 'front' ? [proj.frontU(pred(f, j, 0)), v] : [proj.sideU(pred(f, j, 1)), v];
    };
    for (let f = 0; f < t; f++) {
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
          const [ua, va] = project(f, ja);
          const [ub, vb] = project(f, jb);
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
        fixed[view]++;
      }
    }
  }
  return fixed;
}

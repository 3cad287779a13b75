import { ViewProjection } from '@mocap/layout';
import type { FitData, RobustWeights } from './fit-objective.js';
import type { FitState } from './fit-state.js';

/**
 * Per-frame cost of the terms that do not couple frames (robust reprojection, ground, pull
 * to rest) at Cauchy scale `scale`, into `out` (T; only the frames in `only` when given). The
 * frame-wise stage minimises these. When `w` is given, fills the IRLS weights of those frames
 * too (as `fitCost` does).
 */
export function frameCosts(
  data: FitData,
  st: FitState,
  scale: number,
  out: Float64Array,
  only?: Uint8Array,
  w?: RobustWeights,
): Float64Array {
  const proj = new ViewProjection(data.layout);
  for (let f = 0; f < data.t; f++) if (!only || only[f]) out[f] = frameCost(data, st, scale, proj, f, w);
  return out;
}

/** {@link frameCosts} of frame f (a function of its own: it is optimised after a few frames). */
function frameCost(
  data: FitData,
  st: FitState,
  scale: number,
  proj: ViewProjection,
  f: number,
  w: RobustWeights | undefined,
): number {
  const { k, layout, weights: W } = data;
  const m = layout.M_PER_PX;
  const s2 = scale * scale;
  const x = st.x;
  const lim = data.model.limits;
  const b = st.b;
  let cost = 0;
  for (let j = 0; j < k; j++) {
    const i = f * k + j;
    const pz = x[3 * i + 2] as number;
    const v = proj.row(pz);
    const cf = data.frontConf[i] as number;
    if (cf > 0) {
      const du = proj.frontU(x[3 * i] as number) - (data.front[2 * i] as number);
      const dv = v - (data.front[2 * i + 1] as number);
      const r2 = du * du + dv * dv;
      cost += 0.5 * cf * s2 * Math.log1p(r2 / s2);
      if (w) w.front[i] = cf / (1 + r2 / s2);
    } else if (w) w.front[i] = 0;
    const cs = data.sideConf[i] as number;
    if (cs > 0) {
      const du = proj.sideU(x[3 * i + 1] as number) - (data.side[2 * i] as number);
      const dv = v - (data.side[2 * i + 1] as number);
      const r2 = du * du + dv * dv;
      cost += 0.5 * cs * s2 * Math.log1p(r2 / s2);
      if (w) w.side[i] = cs / (1 + r2 / s2);
    } else if (w) w.side[i] = 0;
  }
  for (let q = 0; q < data.feet.length; q++) {
    const j = data.feet[q] as number;
    const z = x[(f * k + j) * 3 + 2] as number;
    if (z < 0) cost += (0.5 * W.ground * z * z) / (m * m);
  }
  for (let i = 1; i < b; i++) {
    for (let a = 0; a < 3; a++) {
      if (!((lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number))) continue;
      const e = st.e[(f * b + i) * 3 + a] as number;
      cost += 0.5 * W.rest * e * e;
    }
  }
  return cost;
}

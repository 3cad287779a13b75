import type { Layout } from './layout.js';
import { ViewProjection } from './view-projection.js';

/** How the two views' heights are blended. */
export interface TriangulateOptions {
  /** Weight of the front view's row per unit confidence. @default 0.25 */
  frontWeight?: number;
  /** Weight of the side view's row per unit confidence. @default 1 */
  sideWeight?: number;
}

/**
 * Triangulates N joints seen in both views (the seed's rule): x from the front column, y from
 * the side column, z from both rows weighted `frontWeight * front_conf` and
 * `sideWeight * side_conf` (equal weights when both confidences are 0). `frontUv`/`sideUv` are
 * N x 2 layout px, `frontConf`/`sideConf` N values; `out` receives N x 3 metres and is returned.
 * `heightGap`, when given, receives each joint's row disagreement |v_front - v_side| in px.
 *
 * ```ts
 * const xyz = triangulate(new Float64Array(n * 3), fuv, suv, fconf, sconf, layout);
 * ```
 */
export function triangulate(
  out: Float64Array,
  frontUv: ArrayLike<number>,
  sideUv: ArrayLike<number>,
  frontConf: ArrayLike<number>,
  sideConf: ArrayLike<number>,
  layout: Layout,
  options: TriangulateOptions = {},
  heightGap?: Float64Array,
): Float64Array {
  const n = frontConf.length;
  if (frontUv.length < 2 * n || sideUv.length < 2 * n || sideConf.length < n || out.length < 3 * n) {
    throw new RangeError(`triangulate: arrays disagree on the joint count ${n}.`);
  }
  const wf = options.frontWeight ?? 0.25;
  const ws = options.sideWeight ?? 1;
  const proj = new ViewProjection(layout);
  for (let i = 0; i < n; i++) {
    const vf = frontUv[2 * i + 1] as number;
    const vs = sideUv[2 * i + 1] as number;
    let a = wf * Math.max(0, frontConf[i] as number);
    let b = ws * Math.max(0, sideConf[i] as number);
    if (!(a + b > 0)) {
      a = 1;
      b = 1;
    }
    const v = (a * vf + b * vs) / (a + b);
    out[3 * i] = proj.x(frontUv[2 * i] as number);
    out[3 * i + 1] = proj.y(sideUv[2 * i] as number);
    out[3 * i + 2] = proj.z(v);
    if (heightGap) heightGap[i] = Math.abs(vf - vs);
  }
  return out;
}

import { quatConjugate, quatMultiply } from '@mocap/anim-loop';
import type { RefinePose } from './refine-pose-state.js';

/**
 * The pose prior of {@link ChamferObjective}: cost `0.5 w |r_j|^2` per free joint (`joints`, in
 * parameter order: joint k's rotation vector at `3 + 3k` of `params`), with prior residuals
 * r_j = log(q_ref^-1 q_j) (rotation vector, joint frame) against `ref` (J x 4, XYZW); with the step
 * q <- q exp(delta), dr/d(delta) = I + [r]x / 2 to first order in r. With `h` and `g`, adds the
 * normal equations (upper triangle of each joint's block of `h` only).
 */
export function priorTerms(
  ref: Float64Array,
  state: RefinePose,
  joints: Int32Array,
  w: number,
  P: number,
  h?: Float64Array,
  g?: Float64Array,
): number {
  const q = state.pose.rotation;
  let cost = 0;
  for (let k = 0; k < joints.length; k++) {
    const o = 4 * joints[k];
    // d = conj(ref) * q, XYZW
    const d = quatMultiply(
      priorScratch,
      quatConjugate(priorScratch, ref.subarray(o, o + 4)),
      q.subarray(o, o + 4),
    );
    let dx = d[0];
    let dy = d[1];
    let dz = d[2];
    let dw = d[3];
    if (dw < 0) {
      dx = -dx;
      dy = -dy;
      dz = -dz;
      dw = -dw;
    }
    // the log by hand, not anim-loop's quatLog: that one's sqrt and small-angle branch round
    // differently (1 ulp in ~3% of cases), and the refinement is sensitive to rounding
    const sn = Math.hypot(dx, dy, dz);
    const f = sn > 1e-12 ? (2 * Math.atan2(sn, dw)) / sn : 2;
    const r0 = f * dx;
    const r1 = f * dy;
    const r2 = f * dz;
    cost += 0.5 * w * (r0 * r0 + r1 * r1 + r2 * r2);
    if (!h || !g) continue;
    const p = 3 + 3 * k;
    // J = I + [r]x / 2 (row i: d r_i / d delta)
    const J = [1, -r2 / 2, r1 / 2, r2 / 2, 1, -r0 / 2, -r1 / 2, r0 / 2, 1];
    const r = [r0, r1, r2];
    for (let a = 0; a < 3; a++) {
      let ga = 0;
      for (let i = 0; i < 3; i++) ga += J[3 * i + a] * r[i];
      g[p + a] += w * ga;
      for (let b = a; b < 3; b++) {
        let hab = 0;
        for (let i = 0; i < 3; i++) hab += J[3 * i + a] * J[3 * i + b];
        h[(p + a) * P + p + b] += w * hab;
      }
    }
  }
  return cost;
}

const priorScratch = new Float64Array(4);

import { jointWorldMatrices } from './joint-world-matrices.js';
import type { RefinePose } from './refine-pose-state.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Per joint, the unit axis in its parent's frame that is the layout's x axis (the side view's
 * line of sight) at rest: J x 3 (0 for root joints).
 */
export function restLateralAxes(mesh: SkinnedMesh): Float64Array {
  const J = mesh.jointNames.length;
  const world = jointWorldMatrices(new Float64Array(J * 16), mesh, mesh.rest, mesh.toWorld);
  const out = new Float64Array(J * 3);
  for (let j = 0; j < J; j++) {
    const p = mesh.parent[j];
    if (p < 0) continue;
    // The parent's rest rotation R (columns normalised); the axis is R^T (1, 0, 0): row 0 of R.
    let n = 0;
    for (let c = 0; c < 3; c++) {
      const col = Math.hypot(world[16 * p + 4 * c], world[16 * p + 4 * c + 1], world[16 * p + 4 * c + 2]);
      out[3 * j + c] = world[16 * p + 4 * c] / col;
      n += out[3 * j + c] ** 2;
    }
    for (let c = 0; c < 3; c++) out[3 * j + c] /= Math.sqrt(n);
  }
  return out;
}

/**
 * Keeps, of each listed joint's rotation away from its rest rotation (in its parent's frame),
 * only the twist about `axes` (from {@link restLateralAxes}: the layout's x at rest, the side
 * view's line of sight): the swing the side view sees; the bone stays in its parent's sagittal
 * plane. For a joint the front view does not show (a tail behind the body) the rest of its
 * rotation, a sideways swing, is unobserved: the masks push it wherever some silhouette is left
 * unexplained, by a hand's width at a tail tip, while a creature's unobserved sideways sway is
 * best guessed at zero. Changes the pose in place (translation untouched) and returns it.
 *
 * ```ts
 * keepSideViewSwing(state, mesh, [tail1, tail2, tail3], restLateralAxes(mesh));
 * ```
 */
export function keepSideViewSwing(
  state: RefinePose,
  mesh: SkinnedMesh,
  joints: readonly number[],
  axes: Float64Array,
): RefinePose {
  const q = state.pose.rotation;
  const r = mesh.rest.rotation;
  for (const j of joints) {
    const o = 4 * j;
    // d = q * conj(rest): the rotation since rest, in the parent's frame.
    const [ax, ay, az, aw] = [q[o], q[o + 1], q[o + 2], q[o + 3]];
    const [bx, by, bz, bw] = [-r[o], -r[o + 1], -r[o + 2], r[o + 3]];
    const dx = aw * bx + ax * bw + ay * bz - az * by;
    const dy = aw * by - ax * bz + ay * bw + az * bx;
    const dz = aw * bz + ax * by - ay * bx + az * bw;
    const dw = aw * bw - ax * bx - ay * by - az * bz;
    // Its twist about the axis, then q = twist * rest.
    const ux = axes[3 * j];
    const uy = axes[3 * j + 1];
    const uz = axes[3 * j + 2];
    const p = dx * ux + dy * uy + dz * uz;
    const n = Math.hypot(p, dw);
    const tx = n > 1e-12 ? (p * ux) / n : 0;
    const ty = n > 1e-12 ? (p * uy) / n : 0;
    const tz = n > 1e-12 ? (p * uz) / n : 0;
    const tw = n > 1e-12 ? dw / n : 1;
    const [cx, cy, cz, cw] = [r[o], r[o + 1], r[o + 2], r[o + 3]];
    q[o] = tw * cx + tx * cw + ty * cz - tz * cy;
    q[o + 1] = tw * cy - tx * cz + ty * cw + tz * cx;
    q[o + 2] = tw * cz + tx * cy - ty * cx + tz * cw;
    q[o + 3] = tw * cw - tx * cx - ty * cy - tz * cz;
  }
  return state;
}

import { quatConjugate, quatFromMat3, quatMultiply } from '@mocap/anim-loop';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { poseRoot, type RefinePose } from './refine-pose-state.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * Turns joint `j` (not a root joint) about the layout's vertical axis through its origin so that
 * `point` (layout world, metres; a point the joint carries, e.g. a head's tip) lands mirrored
 * across the vertical plane through the joint along the layout's y axis: its x offset from the
 * joint negated, its y offset and height kept. The side view (which looks along x) sees the two
 * poses alike; only the front view tells them apart. Changes `state` in place; `world` is J x 16
 * scratch.
 */
export function flipLateral(
  state: RefinePose,
  mesh: SkinnedMesh,
  j: number,
  point: ArrayLike<number>,
  world: Float64Array,
): void {
  const p = mesh.parent[j];
  if (p < 0) throw new RangeError(`flipLateral: joint ${j} ("${mesh.jointNames[j]}") is a root joint.`);
  jointWorldMatrices(world, mesh, state.pose, poseRoot(rootScratch, mesh.toWorld, state));
  const o = 16 * j;
  const vx = (point[0] as number) - world[o + 12];
  const vy = (point[1] as number) - world[o + 13];
  // (vx, vy) at angle a turns to (-vx, vy) at pi - a
  const phi = Math.PI - 2 * Math.atan2(vy, vx);
  // the parent's world rotation (columns normalised: the root carries glTF's unit scale)
  for (let c = 0; c < 3; c++) {
    const n = Math.hypot(world[16 * p + 4 * c], world[16 * p + 4 * c + 1], world[16 * p + 4 * c + 2]);
    for (let r = 0; r < 3; r++) m3[3 * c + r] = world[16 * p + 4 * c + r] / n;
  }
  quatFromMat3(qp, m3);
  // the turn about the layout's vertical (z)
  qz[0] = 0;
  qz[1] = 0;
  qz[2] = Math.sin(phi / 2);
  qz[3] = Math.cos(phi / 2);
  // local' = parent^-1 * turn * parent * local
  const q = state.pose.rotation.subarray(4 * j, 4 * j + 4);
  quatMultiply(t1, qp, q);
  quatMultiply(t2, qz, t1);
  quatMultiply(t1, quatConjugate(t3, qp), t2);
  const n = Math.hypot(t1[0], t1[1], t1[2], t1[3]);
  for (let i = 0; i < 4; i++) q[i] = t1[i] / n;
}

const m3 = new Float64Array(9);
const qp = new Float64Array(4);
const qz = new Float64Array(4);
const t1 = new Float64Array(4);
const t2 = new Float64Array(4);
const t3 = new Float64Array(4);
const rootScratch = new Float64Array(16);

/** When a keypoint's front peak counts as on the mirrored side ({@link LateralFlips}). */
export interface LateralFlipRules {
  /** The gate (layout px): only a peak the gate turned away counts. */
  gatePx: number;
  /** Frames running before a flip is tried. */
  frames: number;
  /** The least confidence of the peak. */
  minConf: number;
  /** The least lateral offset (front-view px from the pivot) of both the peak and the model's keypoint. */
  minPx: number;
  /** The least sideways offset of both as a share of the keypoint's distance from the pivot (px, `reach`). */
  minShare: number;
  /** Frames a keypoint waits after a refused flip. */
  cooldown: number;
}

/**
 * Per keypoint, how many frames running stage 1's front-view peak has lain on the other side of
 * the keypoint's pivot joint from the model's keypoint (a head turned left where the model turned
 * it right), turned away by the gate and holding still: the mirror pair that the side view cannot
 * tell apart and the outline often cannot either (a head turned within the chest's outline).
 */
export class LateralFlips {
  private readonly run: Int32Array;
  private readonly cool: Int32Array;
  private readonly last: Float64Array;

  constructor(
    keypoints: number,
    private readonly rules: LateralFlipRules,
  ) {
    this.run = new Int32Array(keypoints);
    this.cool = new Int32Array(keypoints);
    this.last = new Float64Array(2 * keypoints).fill(Number.NaN);
  }

  /**
   * Records keypoint `k`'s front peak (u, v, confidence `c`, `d` px from the model's keypoint at
   * `modelU`) and the pivot's front u; returns whether a flip may be tried now.
   */
  observe(
    k: number,
    u: number,
    v: number,
    c: number,
    d: number,
    modelU: number,
    pivotU: number,
    reach: number,
  ): boolean {
    const r = this.rules;
    const steady = c >= r.minConf && Math.hypot(u - this.last[2 * k], v - this.last[2 * k + 1]) <= r.gatePx;
    this.last[2 * k] = u;
    this.last[2 * k + 1] = v;
    const peak = u - pivotU;
    const model = modelU - pivotU;
    const least = Math.max(r.minPx, r.minShare * reach);
    const mirrored = peak * model < 0 && Math.abs(peak) >= least && Math.abs(model) >= least;
    if (this.cool[k] > 0) this.cool[k]--;
    this.run[k] = steady && mirrored && d > r.gatePx ? this.run[k] + 1 : 0;
    return this.run[k] >= r.frames && this.cool[k] === 0;
  }

  /** Ends keypoint `k`'s run after a flip; a refused one waits `cooldown` frames. */
  settle(k: number, kept: boolean): void {
    this.run[k] = 0;
    if (!kept) this.cool[k] = this.rules.cooldown;
  }
}

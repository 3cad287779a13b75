import { type Layout, ViewProjection } from '@mocap/layout';
import type { FitState } from './fit-state.js';
import { DIFF } from './linalg.js';
import type { RigModel } from './rig-model.js';

/** Weights of the fit's terms (all costs are 1/2 sum weight * residual^2; px residuals for positions). */
export interface FitWeights {
  /** Smoothness of every bone's Euler angles: the `order`-th difference over frames (3: jerk), per rad^2. @default 30000 */
  jerk: number;
  /**
   * How the jerk weight follows each bone's lever (see {@link jerkScales}): 0 one weight for all
   * bones, 2 smoothing alike in keypoint motion. @default 0
   */
  jerkLever: number;
  /** Order of the angle smoothness difference (3 jerk, 4 snap). @default 3 */
  order: 3 | 4;
  /** Angular velocity (first difference) of every bone's Euler angles, per rad^2. @default 0.01 */
  velocity: number;
  /** Pull of every bone's Euler angles to rest (zero), per rad^2. @default 0.01 */
  rest: number;
  /** Jerk of the root translation, per px^2. @default 0.001 */
  rootJerk: number;
  /** Jerk of the root orientation (its axes), per unit^2. @default 6000000 */
  rootTurnJerk: number;
  /** Acceleration of every joint, per px^2. @default 0.001 */
  jointAccel: number;
  /** Feet below the ground, per px^2. @default 1 */
  ground: number;
}

/** The default {@link FitWeights}. */
export const DEFAULT_FIT_WEIGHTS: Readonly<FitWeights> = Object.freeze({
  jerk: 30000,
  jerkLever: 0,
  order: 3,
  velocity: 0.01,
  rest: 0.01,
  rootJerk: 0.001,
  rootTurnJerk: 6000000,
  jointAccel: 0.001,
  ground: 1,
});

/** Everything fixed during a fit: the rig, the observations in layout px, weights, feet. */
export interface FitData {
  model: RigModel;
  layout: Layout;
  t: number;
  k: number;
  /** Observations T x K x 2 (layout px) and confidences T x K (0 where unusable). */
  front: Float64Array;
  side: Float64Array;
  frontConf: Float64Array;
  sideConf: Float64Array;
  feet: Int32Array;
  weights: FitWeights;
  /**
   * The multiplier of `weights.jerk` per jerk residual (frame r: the difference over frames
   * r .. r + order) and angle (3 per bone), T x 3B; empty for one weight everywhere (see
   * jerk-weights.ts: per-bone levers, robust reweighting).
   */
  jerkWeight: Float64Array;
  /** Per keypoint: the bones (excluding the root) whose rotation moves it. */
  chains: Int32Array[];
}

/**
 * A {@link FitData} of these fields, built by one object literal: the fit makes every one of
 * its FitData (the clip, its windows, gathered frames) here, so that the solver's functions
 * see a single object shape; a second shape sends their optimised code back to the
 * interpreter, which in a fresh process costs a short clip's fit more than its work.
 */
export function fitData(d: FitData): FitData {
  return {
    model: d.model,
    layout: d.layout,
    t: d.t,
    k: d.k,
    front: d.front,
    side: d.side,
    frontConf: d.frontConf,
    sideConf: d.sideConf,
    feet: d.feet,
    weights: d.weights,
    jerkWeight: d.jerkWeight,
    chains: d.chains,
  };
}

/** {@link FitWeights} built by one object literal (one object shape; see {@link fitData}). */
export function fitWeights(w: FitWeights): FitWeights {
  return {
    jerk: w.jerk,
    jerkLever: w.jerkLever,
    order: w.order,
    velocity: w.velocity,
    rest: w.rest,
    rootJerk: w.rootJerk,
    rootTurnJerk: w.rootTurnJerk,
    jointAccel: w.jointAccel,
    ground: w.ground,
  };
}

// Made once as the module loads, with a fraction in every weight: the object shape then holds
// the weights as doubles from the start, so the fit's own weights (whole numbers, fractions)
// never change it mid-fit, which would deoptimise every function compiled against it.
fitWeights({
  jerk: 0.5,
  jerkLever: 0.5,
  order: 3,
  velocity: 0.5,
  rest: 0.5,
  rootJerk: 0.5,
  rootTurnJerk: 0.5,
  jointAccel: 0.5,
  ground: 0.5,
});

/**
 * The frames `f0 .. f0 + len - 1` of `data`: the observation arrays are views (a change made
 * through the window, such as a swap undone, is made in `data`); the rest is shared.
 */
export function frameWindow(data: FitData, f0: number, len: number): FitData {
  const { k } = data;
  return fitData({
    ...data,
    t: len,
    front: data.front.subarray(f0 * k * 2, (f0 + len) * k * 2),
    side: data.side.subarray(f0 * k * 2, (f0 + len) * k * 2),
    frontConf: data.frontConf.subarray(f0 * k, (f0 + len) * k),
    sideConf: data.sideConf.subarray(f0 * k, (f0 + len) * k),
    jerkWeight: windowRows(data.jerkWeight, data.t, f0, len),
  });
}

/** Rows f0 .. f0 + len - 1 of a T-row array (empty stays empty). */
function windowRows(a: Float64Array, t: number, f0: number, len: number): Float64Array {
  if (a.length === 0) return a;
  const row = a.length / t;
  return a.subarray(f0 * row, (f0 + len) * row);
}

/** Per-keypoint bone chains of a rig model (see {@link FitData.chains}). */
export function keypointChains(model: RigModel): Int32Array[] {
  return model.keypoints.map((kp) => {
    const out: number[] = [];
    let i = kp.end === 'tail' ? kp.bone : (model.parent[kp.bone] as number);
    while (i > 0) {
      out.push(i);
      i = model.parent[i] as number;
    }
    return Int32Array.from(out);
  });
}

/** IRLS weights of the current residuals (T x K per view): conf / (1 + r^2 / s^2). */
export interface RobustWeights {
  front: Float64Array;
  side: Float64Array;
}

/**
 * Zeroed {@link RobustWeights} for `n` detections per view: a class of its own, so that no other
 * `{ front, side }` object (e.g. the sync report's swap counts, whose fields are written) shares
 * its map and invalidates the code compiled against it.
 */
class RobustWeightBuffers implements RobustWeights {
  readonly front: Float64Array;
  readonly side: Float64Array;
  constructor(n: number) {
    this.front = new Float64Array(n);
    this.side = new Float64Array(n);
  }
}

/** New zeroed {@link RobustWeights} for `n` detections per view. */
export function robustWeights(n: number): RobustWeights {
  return new RobustWeightBuffers(n);
}

/**
 * The fit's cost at state `st` (FK up to date) with Cauchy scale `scale` px; when `w` is
 * given, fills the IRLS weights. Each term's loop is a function of its own that takes the
 * running sum and returns it (the same sum, in the same order, as one loop): in a fresh
 * process a loop still running in the interpreter is compiled on the stack, and that code,
 * compiled before anything after the loop ran, would be thrown away after the loop at every
 * call.
 */
export function fitCost(data: FitData, st: FitState, scale: number, w?: RobustWeights): number {
  const W = data.weights;
  let cost = addReprojectionCost(data, st, scale, w, 0);
  if (W.jointAccel > 0) cost = addJointAccelCost(data, st, cost);
  if (W.ground > 0) cost = addGroundCost(data, st, cost);
  cost += priorCost(data, st);
  return cost;
}

/** `cost` plus the robust (Cauchy) reprojection cost of both views; fills `w` when given. */
function addReprojectionCost(
  data: FitData,
  st: FitState,
  scale: number,
  w: RobustWeights | undefined,
  costSoFar: number,
): number {
  const { t, k, layout } = data;
  const s2 = scale * scale;
  const proj = new ViewProjection(layout);
  let cost = costSoFar;
  const x = st.x;
  for (let i = 0; i < t * k; i++) {
    const px = x[3 * i] as number;
    const py = x[3 * i + 1] as number;
    const pz = x[3 * i + 2] as number;
    const v = proj.row(pz);
    const cf = data.frontConf[i] as number;
    if (cf > 0) {
      const du = proj.frontU(px) - (data.front[2 * i] as number);
      const dv = v - (data.front[2 * i + 1] as number);
      const r2 = du * du + dv * dv;
      cost += 0.5 * cf * s2 * Math.log1p(r2 / s2);
      if (w) w.front[i] = cf / (1 + r2 / s2);
    } else if (w) w.front[i] = 0;
    const cs = data.sideConf[i] as number;
    if (cs > 0) {
      const du = proj.sideU(py) - (data.side[2 * i] as number);
      const dv = v - (data.side[2 * i + 1] as number);
      const r2 = du * du + dv * dv;
      cost += 0.5 * cs * s2 * Math.log1p(r2 / s2);
      if (w) w.side[i] = cs / (1 + r2 / s2);
    } else if (w) w.side[i] = 0;
  }
  return cost;
}

/** `cost` plus the joint acceleration term. */
function addJointAccelCost(data: FitData, st: FitState, costSoFar: number): number {
  const { t, k, layout, weights: W } = data;
  const m = layout.M_PER_PX;
  const m2 = m * m;
  const x = st.x;
  let cost = costSoFar;
  for (let f = 1; f + 1 < t; f++) {
    for (let c = 0; c < k * 3; c++) {
      const a =
        (x[(f + 1) * k * 3 + c] as number) -
        2 * (x[f * k * 3 + c] as number) +
        (x[(f - 1) * k * 3 + c] as number);
      cost += (0.5 * W.jointAccel * a * a) / m2;
    }
  }
  return cost;
}

/** `cost` plus the ground term of the feet below the ground. */
function addGroundCost(data: FitData, st: FitState, costSoFar: number): number {
  const { t, k, layout, weights: W } = data;
  const m = layout.M_PER_PX;
  const m2 = m * m;
  const x = st.x;
  let cost = costSoFar;
  for (let f = 0; f < t; f++) {
    for (let q = 0; q < data.feet.length; q++) {
      const j = data.feet[q] as number;
      const z = x[(f * k + j) * 3 + 2] as number;
      if (z < 0) cost += (0.5 * W.ground * z * z) / m2;
    }
  }
  return cost;
}

function priorCost(data: FitData, st: FitState): number {
  return addRootPriorCost(data, st, addAnglePriorCost(data, st, 0));
}

/** `cost` plus the angle priors (rest, velocity, the `order`-th difference), frame-major. */
function addAnglePriorCost(data: FitData, st: FitState, costSoFar: number): number {
  const { t, weights: W } = data;
  const b = st.b;
  const m = b * 3;
  const lim = data.model.limits;
  const co = DIFF[W.order];
  const ord = W.order;
  const e = st.e;
  const jw = data.jerkWeight;
  const uniform = jw.length === 0;
  let cost = costSoFar;
  // Frame-major: each frame's row of angles is contiguous.
  for (let f = 0; f < t; f++) {
    const o = f * m;
    for (let q = 3; q < m; q++) {
      const i = (q / 3) | 0;
      const a = q - 3 * i;
      if (!((lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number))) continue;
      const v = e[o + q] as number;
      cost += 0.5 * W.rest * v * v;
      if (f + 1 < t) {
        const d = (e[o + m + q] as number) - v;
        cost += 0.5 * W.velocity * d * d;
      }
      if (f + ord < t) {
        let d = 0;
        for (let c = 0; c <= ord; c++) d += (co[c] as number) * (e[o + c * m + q] as number);
        cost += 0.5 * W.jerk * (uniform ? 1 : (jw[o + q] as number)) * d * d;
      }
    }
  }
  return cost;
}

/**
 * `cost` plus the root translation and orientation jerk, accumulated in the same order as one
 * loop would (its own function, so that each part is compiled whole).
 */
function addRootPriorCost(data: FitData, st: FitState, costSoFar: number): number {
  const { t, weights: W } = data;
  const m2 = data.layout.M_PER_PX ** 2;
  let cost = costSoFar;
  const c3 = DIFF[3];
  const tr = st.trans;
  const rr = st.rootRot;
  for (let f = 0; f + 3 < t; f++) {
    for (let a = 0; a < 3; a++) {
      let d = 0;
      for (let q = 0; q <= 3; q++) d += (c3[q] as number) * (tr[(f + q) * 3 + a] as number);
      cost += (0.5 * W.rootJerk * d ** 2) / m2;
    }
    for (let c = 0; c < 9; c++) {
      let d = 0;
      for (let q = 0; q <= 3; q++) d += (c3[q] as number) * (rr[(f + q) * 9 + c] as number);
      cost += 0.5 * W.rootTurnJerk * d ** 2;
    }
  }
  return cost;
}

/**
 * Reverse pass of one frame: keypoint forces `force` (K x 3 at offset fo) to variable
 * gradients `out` (n at offset oo, added), through the posed tree of frame `f`.
 */
export function jacobianTranspose(
  data: FitData,
  st: FitState,
  f: number,
  force: Float64Array,
  fo: number,
  out: Float64Array,
  oo: number,
  work: Float64Array,
): void {
  const { model } = data;
  const b = st.b;
  const k = st.k;
  work.fill(0, 0, b * 6);
  const pb = f * b * 3;
  const xb = f * k * 3;
  const keyBone = model.keyBone;
  const keyTail = model.keyTail;
  for (let j = 0; j < k; j++) {
    const fx = force[fo + j * 3] as number;
    const fy = force[fo + j * 3 + 1] as number;
    const fz = force[fo + j * 3 + 2] as number;
    if (fx === 0 && fy === 0 && fz === 0) continue;
    const i = keyBone[j] as number;
    work[i * 6] = (work[i * 6] as number) + fx;
    work[i * 6 + 1] = (work[i * 6 + 1] as number) + fy;
    work[i * 6 + 2] = (work[i * 6 + 2] as number) + fz;
    if (keyTail[j]) {
      const rx = (st.x[xb + j * 3] as number) - (st.pos[pb + i * 3] as number);
      const ry = (st.x[xb + j * 3 + 1] as number) - (st.pos[pb + i * 3 + 1] as number);
      const rz = (st.x[xb + j * 3 + 2] as number) - (st.pos[pb + i * 3 + 2] as number);
      work[i * 6 + 3] = (work[i * 6 + 3] as number) + ry * fz - rz * fy;
      work[i * 6 + 4] = (work[i * 6 + 4] as number) + rz * fx - rx * fz;
      work[i * 6 + 5] = (work[i * 6 + 5] as number) + rx * fy - ry * fx;
    }
  }
  for (let i = b - 1; i >= 1; i--) {
    const tx = work[i * 6 + 3] as number;
    const ty = work[i * 6 + 4] as number;
    const tz = work[i * 6 + 5] as number;
    const ab = (f * b + i) * 9;
    for (let a = 0; a < 3; a++) {
      const s = st.s[(f * b + i) * 3 + a] as number;
      const g =
        (st.axes[ab + a * 3] as number) * tx +
        (st.axes[ab + a * 3 + 1] as number) * ty +
        (st.axes[ab + a * 3 + 2] as number) * tz;
      out[oo + 3 + 3 * i + a] = (out[oo + 3 + 3 * i + a] as number) + s * g;
    }
    const p = model.parent[i] as number;
    const Fx = work[i * 6] as number;
    const Fy = work[i * 6 + 1] as number;
    const Fz = work[i * 6 + 2] as number;
    const rx = (st.pos[pb + i * 3] as number) - (st.pos[pb + p * 3] as number);
    const ry = (st.pos[pb + i * 3 + 1] as number) - (st.pos[pb + p * 3 + 1] as number);
    const rz = (st.pos[pb + i * 3 + 2] as number) - (st.pos[pb + p * 3 + 2] as number);
    work[p * 6] = (work[p * 6] as number) + Fx;
    work[p * 6 + 1] = (work[p * 6 + 1] as number) + Fy;
    work[p * 6 + 2] = (work[p * 6 + 2] as number) + Fz;
    work[p * 6 + 3] = (work[p * 6 + 3] as number) + tx + ry * Fz - rz * Fy;
    work[p * 6 + 4] = (work[p * 6 + 4] as number) + ty + rz * Fx - rx * Fz;
    work[p * 6 + 5] = (work[p * 6 + 5] as number) + tz + rx * Fy - ry * Fx;
  }
  for (let a = 0; a < 6; a++) out[oo + a] = (out[oo + a] as number) + (work[a] as number);
}

/**
 * Forward pass of one frame: variable change `v` (n at offset vo) to keypoint changes
 * `out` (K x 3 at offset oo, overwritten).
 */
export function jacobianForward(
  data: FitData,
  st: FitState,
  f: number,
  v: Float64Array,
  vo: number,
  out: Float64Array,
  oo: number,
  work: Float64Array,
): void {
  const { model } = data;
  const b = st.b;
  const k = st.k;
  const pb = f * b * 3;
  // work: per bone angular velocity (3) and head velocity (3)
  work[0] = v[vo + 3] as number;
  work[1] = v[vo + 4] as number;
  work[2] = v[vo + 5] as number;
  work[3] = v[vo] as number;
  work[4] = v[vo + 1] as number;
  work[5] = v[vo + 2] as number;
  for (let i = 1; i < b; i++) {
    const p = model.parent[i] as number;
    const wx = work[p * 6] as number;
    const wy = work[p * 6 + 1] as number;
    const wz = work[p * 6 + 2] as number;
    const rx = (st.pos[pb + i * 3] as number) - (st.pos[pb + p * 3] as number);
    const ry = (st.pos[pb + i * 3 + 1] as number) - (st.pos[pb + p * 3 + 1] as number);
    const rz = (st.pos[pb + i * 3 + 2] as number) - (st.pos[pb + p * 3 + 2] as number);
    work[i * 6 + 3] = (work[p * 6 + 3] as number) + wy * rz - wz * ry;
    work[i * 6 + 4] = (work[p * 6 + 4] as number) + wz * rx - wx * rz;
    work[i * 6 + 5] = (work[p * 6 + 5] as number) + wx * ry - wy * rx;
    let ox = wx;
    let oy = wy;
    let oz = wz;
    const ab = (f * b + i) * 9;
    for (let a = 0; a < 3; a++) {
      const d = (st.s[(f * b + i) * 3 + a] as number) * (v[vo + 3 + 3 * i + a] as number);
      ox += (st.axes[ab + a * 3] as number) * d;
      oy += (st.axes[ab + a * 3 + 1] as number) * d;
      oz += (st.axes[ab + a * 3 + 2] as number) * d;
    }
    work[i * 6] = ox;
    work[i * 6 + 1] = oy;
    work[i * 6 + 2] = oz;
  }
  const xb = f * k * 3;
  const keyBone = model.keyBone;
  const keyTail = model.keyTail;
  for (let j = 0; j < k; j++) {
    const i = keyBone[j] as number;
    let vx = work[i * 6 + 3] as number;
    let vy = work[i * 6 + 4] as number;
    let vz = work[i * 6 + 5] as number;
    if (keyTail[j]) {
      const rx = (st.x[xb + j * 3] as number) - (st.pos[pb + i * 3] as number);
      const ry = (st.x[xb + j * 3 + 1] as number) - (st.pos[pb + i * 3 + 1] as number);
      const rz = (st.x[xb + j * 3 + 2] as number) - (st.pos[pb + i * 3 + 2] as number);
      const wx = work[i * 6] as number;
      const wy = work[i * 6 + 1] as number;
      const wz = work[i * 6 + 2] as number;
      vx += wy * rz - wz * ry;
      vy += wz * rx - wx * rz;
      vz += wx * ry - wy * rx;
    }
    out[oo + j * 3] = vx;
    out[oo + j * 3 + 1] = vy;
    out[oo + j * 3 + 2] = vz;
  }
}

import { ViewProjection } from '@mocap/layout';
import { type FitData, jacobianForward, jacobianTranspose, type RobustWeights } from './fit-objective.js';
import type { FitState } from './fit-state.js';
import { addDiffGram, DIFF } from './linalg.js';

/** Scratch buffers of the linear algebra over one problem size. */
export interface Workspace {
  force: Float64Array;
  dx: Float64Array;
  tree: Float64Array;
  rotRes: Float64Array;
}

/** Allocates a {@link Workspace} for a state's size. */
export function createWorkspace(st: FitState): Workspace {
  return {
    force: new Float64Array(st.t * st.k * 3),
    dx: new Float64Array(st.t * st.k * 3),
    tree: new Float64Array(st.b * 6),
    rotRes: new Float64Array(st.t * 9),
  };
}

/**
 * The gradient (T x n) of {@link fitCost} at `st` with the IRLS weights `w` of the same
 * scale (exact: the Cauchy gradient is the weighted residual).
 */
export function fitGradient(
  data: FitData,
  st: FitState,
  w: RobustWeights,
  ws: Workspace,
  g: Float64Array,
): Float64Array {
  const force = ws.force;
  reprojectionForces(data, st, w, force);
  addTemporalForces(data, st.x, force);
  g.fill(0);
  transposeFrames(data, st, force, g, ws);
  addPriors(data, st, st.e, g, true);
  addRootPriors(data, st, st.trans, null, g, ws);
  return g;
}

/**
 * The robust reprojection term's keypoint forces (T x K x 3, overwritten) at `st` with IRLS
 * weights `w`. This and the other passes over the whole clip are functions of their own: a
 * function that runs a long loop in a fresh process is compiled on the stack, and code after
 * the loop that had not run yet would send it back to the interpreter.
 */
function reprojectionForces(data: FitData, st: FitState, w: RobustWeights, force: Float64Array): void {
  const { t, k, layout } = data;
  // d(frontU)/dx = 1/m, d(sideU)/dy = d(row)/dz = -1/m
  const m = layout.M_PER_PX;
  const proj = new ViewProjection(layout);
  const x = st.x;
  for (let i = 0; i < t * k; i++) {
    const px = x[3 * i] as number;
    const py = x[3 * i + 1] as number;
    const v = proj.row(x[3 * i + 2] as number);
    let gx = 0;
    let gy = 0;
    let gz = 0;
    const wf = w.front[i] as number;
    if (wf > 0) {
      gx += (wf * (proj.frontU(px) - (data.front[2 * i] as number))) / m;
      gz -= (wf * (v - (data.front[2 * i + 1] as number))) / m;
    }
    const wsd = w.side[i] as number;
    if (wsd > 0) {
      gy -= (wsd * (proj.sideU(py) - (data.side[2 * i] as number))) / m;
      gz -= (wsd * (v - (data.side[2 * i + 1] as number))) / m;
    }
    force[3 * i] = gx;
    force[3 * i + 1] = gy;
    force[3 * i + 2] = gz;
  }
}

/**
 * Adds the joint acceleration and ground terms' forces at keypoints `x` (the frame-wise stage
 * has neither; a function of its own, so that their first use recompiles only this).
 */
function addTemporalForces(data: FitData, x: Float64Array, force: Float64Array): void {
  const { t, k, layout, weights: W } = data;
  const m = layout.M_PER_PX;
  const m2 = m * m;
  if (W.jointAccel > 0) addAccel(force, x, t, k * 3, W.jointAccel / m2);
  if (W.ground > 0) addGroundForces(data, x, x, force, m2);
}

/** Adds the ground term's forces: feet below the ground (at keypoints `x`) pulled by `dx` (x itself for the gradient). */
function addGroundForces(
  data: FitData,
  x: Float64Array,
  dx: Float64Array,
  force: Float64Array,
  m2: number,
): void {
  const { t, k, weights: W } = data;
  for (let f = 0; f < t; f++) {
    for (let q = 0; q < data.feet.length; q++) {
      const j = data.feet[q] as number;
      const o = (f * k + j) * 3 + 2;
      if ((x[o] as number) < 0) force[o] = (force[o] as number) + (W.ground * (dx[o] as number)) / m2;
    }
  }
}

/** `out` (T x n) += J^T force, frame by frame. */
function transposeFrames(
  data: FitData,
  st: FitState,
  force: Float64Array,
  out: Float64Array,
  ws: Workspace,
): void {
  const { t, k } = data;
  const n = st.n;
  for (let f = 0; f < t; f++) jacobianTranspose(data, st, f, force, f * k * 3, out, f * n, ws.tree);
}

/** out += c * D2^T D2 x over frames (x: T x width). */
function addAccel(out: Float64Array, x: Float64Array, t: number, width: number, c: number): void {
  for (let f = 1; f + 1 < t; f++) {
    for (let q = 0; q < width; q++) {
      const a =
        c *
        ((x[(f + 1) * width + q] as number) -
          2 * (x[f * width + q] as number) +
          (x[(f - 1) * width + q] as number));
      out[(f - 1) * width + q] = (out[(f - 1) * width + q] as number) + a;
      out[f * width + q] = (out[f * width + q] as number) - 2 * a;
      out[(f + 1) * width + q] = (out[(f + 1) * width + q] as number) + a;
    }
  }
}

/**
 * Bone-angle priors: out_p += S * K(vals) where vals are angles (gradient) or S * v (Hessian
 * times v, `isGradient` false), K = rest + velocity D1^T D1 + jerk D^T D: one banded stencil
 * over frames, the same for every free angle.
 */
function addPriors(
  data: FitData,
  st: FitState,
  vals: Float64Array,
  out: Float64Array,
  isGradient: boolean,
): void {
  const { t, weights: W } = data;
  const b = st.b;
  const n = st.n;
  const lim = data.model.limits;
  const S = st.s;
  const m = b * 3;
  if (!(W.jerk > 0 || W.velocity > 0 || W.rest > 0)) return;
  const width = priorStencil(W, t, data.jerkWeight.length === 0);
  // Frame-major work arrays (T x 3B): the angles (or S * v); the stencil by diagonals.
  if (scratchCol.length < t * m) scratchCol = new Float64Array(t * m);
  if (scratchAcc.length < m) {
    scratchAcc = new Float64Array(m);
    scratchFree = new Uint8Array(m);
  }
  const col = scratchCol;
  const band = scratchBand;
  const acc = scratchAcc;
  const free = scratchFree;
  for (let i = 0; i < b; i++) {
    for (let a = 0; a < 3; a++) {
      free[i * 3 + a] = i > 0 && (lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number) ? 1 : 0;
    }
  }
  for (let f = 0; f < t; f++) {
    const o = f * m;
    if (isGradient) col.set(vals.subarray(o, o + m), o);
    else scaledAngles(col, o, S, vals, f * n + 3, m);
  }
  for (let f = 0; f < t; f++) addStencilFrame(col, band, acc, free, S, out, f, t, m, n, width);
  if (W.jerk > 0 && data.jerkWeight.length > 0) addWeightedJerk(data, col, free, S, out, t, m, n);
}

/**
 * The jerk prior with a weight per residual and angle: out_p += S * W.jerk * D^T diag(w) D col
 * on the free angles (`col` T x m as in {@link addPriors}).
 */
function addWeightedJerk(
  data: FitData,
  col: Float64Array,
  free: Uint8Array,
  S: Float64Array,
  out: Float64Array,
  t: number,
  m: number,
  n: number,
): void {
  const W = data.weights;
  const ord = W.order;
  const co = DIFF[ord];
  const jw = data.jerkWeight;
  if (scratchJerk.length < t * m) scratchJerk = new Float64Array(t * m);
  const acc = scratchJerk;
  acc.fill(0, 0, t * m);
  for (let r = 0; r + ord < t; r++) {
    const o = r * m;
    for (let q = 3; q < m; q++) {
      if (!free[q]) continue;
      let d = 0;
      for (let c = 0; c <= ord; c++) d += (co[c] as number) * (col[o + c * m + q] as number);
      d *= W.jerk * (jw[o + q] as number);
      for (let c = 0; c <= ord; c++)
        acc[o + c * m + q] = (acc[o + c * m + q] as number) + (co[c] as number) * d;
    }
  }
  for (let f = 0; f < t; f++) {
    const o = f * m;
    const ob = f * n + 3;
    for (let q = 3; q < m; q++) {
      if (free[q]) out[ob + q] = (out[ob + q] as number) + (S[o + q] as number) * (acc[o + q] as number);
    }
  }
}

/** `col[o + q] = S[o + q] * v[vo + q]` for q < m (one frame's S * v). */
function scaledAngles(
  col: Float64Array,
  o: number,
  S: Float64Array,
  v: Float64Array,
  vo: number,
  m: number,
): void {
  for (let q = 0; q < m; q++) col[o + q] = (S[o + q] as number) * (v[vo + q] as number);
}

/**
 * Frame f of {@link addPriors}: the stencil (diagonals in `band`, half-width `width`) applied to
 * the angle columns `col` (T x m), times S, added to the free angles of `out` (a function of
 * its own: it is optimised after a few frames).
 */
function addStencilFrame(
  col: Float64Array,
  band: Float64Array,
  acc: Float64Array,
  free: Uint8Array,
  S: Float64Array,
  out: Float64Array,
  f: number,
  t: number,
  m: number,
  n: number,
  width: number,
): void {
  const o = f * m;
  const k0 = band[f] as number;
  for (let q = 0; q < m; q++) acc[q] = k0 * (col[o + q] as number);
  for (let d = 1; d <= width; d++) {
    if (f + d < t) {
      const kd = band[d * t + f] as number;
      const c = o + d * m;
      if (kd !== 0) for (let q = 0; q < m; q++) acc[q] = (acc[q] as number) + kd * (col[c + q] as number);
    }
    if (f - d >= 0) {
      const kd = band[d * t + f - d] as number;
      const c = o - d * m;
      if (kd !== 0) for (let q = 0; q < m; q++) acc[q] = (acc[q] as number) + kd * (col[c + q] as number);
    }
  }
  const ob = f * n + 3;
  for (let q = 3; q < m; q++) {
    if (free[q]) out[ob + q] = (out[ob + q] as number) + (S[o + q] as number) * (acc[q] as number);
  }
}

/**
 * Writes the angle priors' stencil K = rest + velocity D1^T D1 + jerk D^T D over t frames, by
 * diagonals, into `scratchBand` and returns its half-width (a function of its own: the
 * frame-wise stage has no temporal terms, and their first use recompiles only this).
 */
function priorStencil(W: FitData['weights'], t: number, uniformJerk: boolean): number {
  const width = W.jerk > 0 ? W.order : W.velocity > 0 ? 1 : 0;
  if (scratchBand.length < (width + 1) * t) scratchBand = new Float64Array((width + 1) * t);
  const band = scratchBand;
  band.fill(0, 0, (width + 1) * t);
  // Weighted jerk residuals are applied on their own (see addWeightedJerk).
  if (W.jerk > 0 && uniformJerk) addDiffGram(band, t, W.order, W.jerk);
  if (W.velocity > 0) addDiffGram(band, t, 1, W.velocity);
  for (let f = 0; f < t; f++) band[f] = (band[f] as number) + W.rest;
  return width;
}

const rootRes = new Float64Array(9);
let scratchCol = new Float64Array(0);
let scratchBand = new Float64Array(0);
let scratchJerk = new Float64Array(0);
let scratchAcc = new Float64Array(0);
let scratchFree = new Uint8Array(0);

/**
 * Root priors. Gradient: `vRot` null, trans from `transVals` (T x 3). Hessian-vector: the
 * root's part of `v` (T x n) is read from `transVals` = v with stride n and vRot = v.
 */
function addRootPriors(
  data: FitData,
  st: FitState,
  transVals: Float64Array,
  vRot: Float64Array | null,
  out: Float64Array,
  ws: Workspace,
): void {
  const { t, weights: W } = data;
  const n = st.n;
  const m2 = data.layout.M_PER_PX ** 2;
  const c3 = DIFF[3];
  const stride = vRot ? n : 3;
  for (let f = 0; W.rootJerk !== 0 && f + 3 < t; f++) {
    for (let a = 0; a < 3; a++) {
      let d = 0;
      for (let q = 0; q < 4; q++) d += (c3[q] as number) * (transVals[(f + q) * stride + a] as number);
      d *= W.rootJerk / m2;
      for (let q = 0; q < 4; q++)
        out[(f + q) * n + a] = (out[(f + q) * n + a] as number) + (c3[q] as number) * d;
    }
  }
  // Root orientation jerk on its axes R e_i: residual r_f = sum_q c_q u_{f+q}, where u is the
  // axes themselves (gradient) or their change v x (R e_i) (Hessian times v).
  if (W.rootTurnJerk === 0) return;
  const R = st.rootRot;
  const u = ws.rotRes;
  for (let f = 0; f < t; f++) {
    if (!vRot) {
      for (let c = 0; c < 9; c++) u[f * 9 + c] = R[f * 9 + c] as number;
      continue;
    }
    const vx = vRot[f * n + 3] as number;
    const vy = vRot[f * n + 4] as number;
    const vz = vRot[f * n + 5] as number;
    for (let i = 0; i < 3; i++) {
      const ax = R[f * 9 + i * 3] as number;
      const ay = R[f * 9 + i * 3 + 1] as number;
      const az = R[f * 9 + i * 3 + 2] as number;
      u[f * 9 + i * 3] = vy * az - vz * ay;
      u[f * 9 + i * 3 + 1] = vz * ax - vx * az;
      u[f * 9 + i * 3 + 2] = vx * ay - vy * ax;
    }
  }
  const wr = W.rootTurnJerk;
  const res = rootRes;
  for (let f = 0; f + 3 < t; f++) {
    for (let c = 0; c < 9; c++) {
      res[c] =
        wr *
        (3 * ((u[(f + 1) * 9 + c] as number) - (u[(f + 2) * 9 + c] as number)) +
          (u[(f + 3) * 9 + c] as number) -
          (u[f * 9 + c] as number));
    }
    for (let q = 0; q < 4; q++) {
      const fq = f + q;
      const cq = c3[q] as number;
      let gx = 0;
      let gy = 0;
      let gz = 0;
      for (let i = 0; i < 3; i++) {
        const ax = R[fq * 9 + i * 3] as number;
        const ay = R[fq * 9 + i * 3 + 1] as number;
        const az = R[fq * 9 + i * 3 + 2] as number;
        const rx = res[i * 3] as number;
        const ry = res[i * 3 + 1] as number;
        const rz = res[i * 3 + 2] as number;
        // J^T r for J = -[a]x: (a x r)
        gx += ay * rz - az * ry;
        gy += az * rx - ax * rz;
        gz += ax * ry - ay * rx;
      }
      out[fq * n + 3] = (out[fq * n + 3] as number) + cq * gx;
      out[fq * n + 4] = (out[fq * n + 4] as number) + cq * gy;
      out[fq * n + 5] = (out[fq * n + 5] as number) + cq * gz;
    }
  }
}

/** Gauss-Newton Hessian (IRLS weights `w`) times `v` (T x n) into `out`. */
export function fitHessVec(
  data: FitData,
  st: FitState,
  w: RobustWeights,
  ws: Workspace,
  v: Float64Array,
  out: Float64Array,
): Float64Array {
  const { t, k, layout, weights: W } = data;
  const n = st.n;
  const m2 = layout.M_PER_PX ** 2;
  const dx = ws.dx;
  for (let f = 0; f < t; f++) jacobianForward(data, st, f, v, f * n, dx, f * k * 3, ws.tree);
  const force = ws.force;
  weightedForces(w, dx, force, t * k, m2);
  if (W.jointAccel > 0) addAccel(force, dx, t, k * 3, W.jointAccel / m2);
  if (W.ground > 0) addGroundForces(data, st.x, dx, force, m2);
  out.fill(0);
  transposeFrames(data, st, force, out, ws);
  addPriors(data, st, v, out, false);
  addRootPriors(data, st, v, v, out, ws);
  return out;
}

/** The reprojection term's Gauss-Newton forces of keypoint changes `dx` (T x K x 3) into `force`. */
function weightedForces(
  w: RobustWeights,
  dx: Float64Array,
  force: Float64Array,
  tk: number,
  m2: number,
): void {
  for (let i = 0; i < tk; i++) {
    const wf = w.front[i] as number;
    const wsd = w.side[i] as number;
    force[3 * i] = (wf * (dx[3 * i] as number)) / m2;
    force[3 * i + 1] = (wsd * (dx[3 * i + 1] as number)) / m2;
    force[3 * i + 2] = ((wf + wsd) * (dx[3 * i + 2] as number)) / m2;
  }
}

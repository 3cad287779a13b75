import { eulerFromMat3, rigidFit } from '@mocap/anim-loop';
import { triangulate } from '@mocap/layout';
import type { FitData } from './fit-objective.js';
import { FitState, rotationFromVector } from './fit-state.js';
import { mul3 } from './forward-kinematics.js';

/** Rows of the two views disagreeing by more than this (px) mark a suspect detection. */
const HEIGHT_GATE_PX = 20;

const sorted = new Float64Array(16);

/** Median of a few values (at most 16; insertion sort into a reused buffer, no allocation). */
function median(values: number[]): number {
  const n = values.length;
  if (n === 0) return Number.NaN;
  const v = n <= sorted.length ? sorted : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = values[i] as number;
    let j = i;
    while (j > 0 && (v[j - 1] as number) > x) {
      v[j] = v[j - 1] as number;
      j--;
    }
    v[j] = x;
  }
  return n % 2 ? (v[(n - 1) >> 1] as number) : ((v[n / 2 - 1] as number) + (v[n / 2] as number)) / 2;
}

/**
 * Robust triangulated targets (T x K x 3 metres): a detection whose rows disagree with the
 * other view's by more than 20 px loses to the view nearer its own temporal median; missing
 * coordinates are filled from the nearest frames; then a 5-frame median filter.
 */
export function robustTargets(data: FitData): Float64Array {
  const { t, k, layout } = data;
  const fc = Float64Array.from(data.frontConf);
  const scf = Float64Array.from(data.sideConf);
  const vmed = (uv: Float64Array, conf: Float64Array, f: number, j: number): number => {
    const vals: number[] = [];
    for (let g = Math.max(0, f - 3); g <= Math.min(t - 1, f + 3); g++) {
      if (g !== f && (conf[g * k + j] as number) > 0) vals.push(uv[2 * (g * k + j) + 1] as number);
    }
    return median(vals);
  };
  for (let f = 0; f < t; f++) {
    for (let j = 0; j < k; j++) {
      const i = f * k + j;
      if (!((fc[i] as number) > 0 && (scf[i] as number) > 0)) continue;
      const vf = data.front[2 * i + 1] as number;
      const vs = data.side[2 * i + 1] as number;
      if (Math.abs(vf - vs) <= HEIGHT_GATE_PX) continue;
      const df = Math.abs(vf - vmed(data.front, data.frontConf, f, j));
      const ds = Math.abs(vs - vmed(data.side, data.sideConf, f, j));
      if (df > ds || Number.isNaN(df)) fc[i] = 0;
      else scf[i] = 0;
    }
  }
  const out = new Float64Array(t * k * 3);
  const fu = finiteOrZero(data.front);
  const su = finiteOrZero(data.side);
  triangulate(out, fu, su, fc, scf, layout);
  // Which coordinates are known: x from the front, y from the side, z from either.
  const known = (f: number, j: number, c: number): boolean => {
    const i = f * k + j;
    return c === 0
      ? (fc[i] as number) > 0
      : c === 1
        ? (scf[i] as number) > 0
        : (fc[i] as number) > 0 || (scf[i] as number) > 0;
  };
  const col = new Float64Array(t);
  const tmp: number[] = [];
  for (let j = 0; j < k; j++) {
    for (let c = 0; c < 3; c++) {
      let last = -1;
      for (let f = 0; f < t; f++) if (known(f, j, c)) last = f;
      if (last < 0) {
        for (let f = 0; f < t; f++) col[f] = Number.NaN;
      } else {
        for (let f = 0; f < t; f++)
          col[f] = known(f, j, c) ? (out[(f * k + j) * 3 + c] as number) : Number.NaN;
        fillGaps(col, t);
      }
      medianFilter(col, t, tmp, out, j * 3 + c, k * 3);
    }
  }
  return out;
}

/** A copy of `a` with every value that is not finite replaced by 0. */
function finiteOrZero(a: Float64Array): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    out[i] = Number.isFinite(x) ? x : 0;
  }
  return out;
}

/** Fills the NaN gaps of `col` (t) from the nearest known frames: linear inside, constant at the ends. */
function fillGaps(col: Float64Array, t: number): void {
  let prev = -1;
  for (let f = 0; f <= t; f++) {
    if (f < t && Number.isNaN(col[f] as number)) continue;
    for (let g = prev + 1; g < f; g++) {
      col[g] =
        prev < 0
          ? (col[f] as number)
          : f >= t
            ? (col[prev] as number)
            : (col[prev] as number) +
              (((col[f] as number) - (col[prev] as number)) * (g - prev)) / (f - prev);
    }
    prev = f;
  }
}

/** The 5-frame median filter of `col` (t) into `out` at `o + f * stride`; `tmp` is scratch. */
function medianFilter(
  col: Float64Array,
  t: number,
  tmp: number[],
  out: Float64Array,
  o: number,
  stride: number,
): void {
  for (let f = 0; f < t; f++) {
    tmp.length = 0;
    for (let g = Math.max(0, f - 2); g <= Math.min(t - 1, f + 2); g++) tmp.push(col[g] as number);
    out[o + f * stride] = median(tmp);
  }
}

/**
 * The seed's start: triangulated joints, the root rotation by a Kabsch fit of the points
 * riding on the root bone, then analytic IK aiming each bone at its triangulated tail.
 * Joints never seen keep the rest pose's relation to the root.
 */
export function initialPose(
  data: FitData,
  st: FitState,
  targets: Float64Array = robustTargets(data),
): FitState {
  const { model, t, chains } = data;
  const b = st.b;
  // Rest keypoints.
  const rest = new FitState(model, 1);
  rest.rootRot.set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  for (let i = 1; i < b; i++) rest.setEuler(0, i, [0, 0, 0]);
  for (let i = 1; i < b; i++) for (let a = 0; a < 3; a++) rest.p[i * 3 + a] = logitOfZero(model.limits, i, a);
  rest.update();
  const rootKeys = chains.flatMap((c, j) => (c.length === 0 ? [j] : []));
  const kTail = new Int32Array(b).fill(-1);
  for (let j = 0; j < model.keypoints.length; j++) {
    const kp = model.keypoints[j]!;
    if (kp.end === 'tail') kTail[kp.bone] = j;
  }
  const src = new Float64Array(rootKeys.length * 3);
  const dst = new Float64Array(rootKeys.length * 3);
  for (let q = 0; q < rootKeys.length; q++) {
    const j = rootKeys[q] as number;
    src.set(rest.x.subarray(j * 3, j * 3 + 3), q * 3);
  }
  const ik: IkScratch = {
    rootKeys,
    kTail,
    src,
    dst,
    R: new Float64Array(9),
    tv: new Float64Array(3),
    rot: new Float64Array(b * 9),
    pos: new Float64Array(b * 3),
    pre: new Float64Array(9),
    sw: new Float64Array(9),
    e: new Float64Array(3),
    E: new Float64Array(9),
  };
  for (let f = 0; f < t; f++) initialFrame(data, st, targets, f, ik);
  return st.update();
}

/** What {@link initialFrame} reads (the root's keypoints, each bone's tail keypoint) and its buffers. */
interface IkScratch {
  rootKeys: number[];
  kTail: Int32Array;
  /** The root keypoints at rest and at the frame (3 each). */
  src: Float64Array;
  dst: Float64Array;
  R: Float64Array;
  tv: Float64Array;
  rot: Float64Array;
  pos: Float64Array;
  pre: Float64Array;
  sw: Float64Array;
  e: Float64Array;
  E: Float64Array;
}

/**
 * {@link initialPose} of frame f: the root by a Kabsch fit, then the bones down the tree (a
 * function of its own: it is optimised after a few frames).
 */
function initialFrame(data: FitData, st: FitState, targets: Float64Array, f: number, ik: IkScratch): void {
  const { model, k } = data;
  const b = st.b;
  const { rootKeys, kTail, src, dst, R, tv, rot, pos, pre, sw, e, E } = ik;
  const h0 = model.restHead;
  for (let q = 0; q < rootKeys.length; q++) {
    const j = rootKeys[q] as number;
    dst.set(targets.subarray((f * k + j) * 3, (f * k + j) * 3 + 3), q * 3);
  }
  let ok = rootKeys.length >= 2 && dst.every(Number.isFinite);
  if (ok) {
    try {
      rigidFit(R, tv, src, dst);
      ok = R.every(Number.isFinite) && tv.every(Number.isFinite);
    } catch {
      ok = false;
    }
  }
  if (!ok) {
    R.set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    tv.fill(0);
  }
  st.rootRot.set(R, f * 9);
  for (let a = 0; a < 3; a++) {
    const rh =
      (R[a] as number) * (h0[0] as number) +
      (R[3 + a] as number) * (h0[1] as number) +
      (R[6 + a] as number) * (h0[2] as number);
    st.trans[f * 3 + a] = (tv[a] as number) + rh - (h0[a] as number);
  }
  // IK down the tree.
  mul3(rot, 0, R, 0, model.restRot, 0);
  for (let a = 0; a < 3; a++) pos[a] = (h0[a] as number) + (st.trans[f * 3 + a] as number);
  for (let i = 1; i < b; i++) {
    const p = model.parent[i] as number;
    mul3(pre, 0, rot, p * 9, model.localRot, i * 9);
    for (let r = 0; r < 3; r++) {
      pos[i * 3 + r] =
        (pos[p * 3 + r] as number) +
        (rot[p * 9 + r] as number) * (model.localOffset[i * 3] as number) +
        (rot[p * 9 + 3 + r] as number) * (model.localOffset[i * 3 + 1] as number) +
        (rot[p * 9 + 6 + r] as number) * (model.localOffset[i * 3 + 2] as number);
    }
    e.fill(0);
    const jt = kTail[i] as number;
    if (jt >= 0) {
      const o = (f * k + jt) * 3;
      const dx = (targets[o] as number) - (pos[i * 3] as number);
      const dy = (targets[o + 1] as number) - (pos[i * 3 + 1] as number);
      const dz = (targets[o + 2] as number) - (pos[i * 3 + 2] as number);
      // Direction in the bone's unposed frame.
      const lx = (pre[0] as number) * dx + (pre[1] as number) * dy + (pre[2] as number) * dz;
      const ly = (pre[3] as number) * dx + (pre[4] as number) * dy + (pre[5] as number) * dz;
      const lz = (pre[6] as number) * dx + (pre[7] as number) * dy + (pre[8] as number) * dz;
      const n = Math.hypot(lx, ly, lz);
      if (n > 1e-9 && Number.isFinite(n)) {
        // Shortest rotation taking +Y to (lx, ly, lz): axis y x d = (lz, 0, -lx).
        const ang = Math.acos(Math.max(-1, Math.min(1, ly / n)));
        const an = Math.hypot(lz, lx);
        if (an > 1e-12) rotationFromVector(sw, (lz / an) * ang, 0, (-lx / an) * ang);
        else sw.set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
        eulerFromMat3(e, sw, 'XYZ');
      }
    }
    st.setEuler(f, i, e, 0.05);
    // Pose this bone with the clamped angles so its children start from it.
    const lim = model.limits;
    for (let a = 0; a < 3; a++) {
      const lo = lim[i * 6 + 2 * a] as number;
      const w = (lim[i * 6 + 2 * a + 1] as number) - lo;
      const pv = st.p[(f * b + i) * 3 + a] as number;
      e[a] = w > 0 ? lo + w / (1 + Math.exp(-pv)) : lo;
    }
    eulerToMat(E, e);
    mul3(rot, i * 9, pre, 0, E, 0);
  }
}

function logitOfZero(lim: Float64Array, i: number, a: number): number {
  const lo = lim[i * 6 + 2 * a] as number;
  const w = (lim[i * 6 + 2 * a + 1] as number) - lo;
  if (!(w > 0)) return 0;
  const u = Math.min(1 - 1e-3, Math.max(1e-3, -lo / w));
  return Math.log(u / (1 - u));
}

function eulerToMat(out: Float64Array, e: Float64Array): void {
  const cx = Math.cos(e[0] as number);
  const sx = Math.sin(e[0] as number);
  const cy = Math.cos(e[1] as number);
  const sy = Math.sin(e[1] as number);
  const cz = Math.cos(e[2] as number);
  const sz = Math.sin(e[2] as number);
  out[0] = cz * cy;
  out[1] = sz * cy;
  out[2] = -sy;
  out[3] = cz * sy * sx - sz * cx;
  out[4] = sz * sy * sx + cz * cx;
  out[5] = cy * sx;
  out[6] = cz * sy * cx + sz * sx;
  out[7] = sz * sy * cx - cz * sx;
  out[8] = cy * cx;
}

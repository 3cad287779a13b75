import { createWorkspace, fitGradient, fitHessVec, type Workspace } from './fit-linear.js';
import { type FitData, fitCost, fitWeights, frameWindow, robustWeights } from './fit-objective.js';
import { BlockPreconditioner } from './fit-preconditioner.js';
import { FitState } from './fit-state.js';
import { frameCosts } from './frame-costs.js';
import { TemporalBands } from './temporal-bands.js';
import {
  addDamped,
  addDampedDot,
  addInto,
  cgUpdate,
  dot,
  negate,
  nextDirection,
  subtract,
} from './vector-kernels.js';

/** Options of the Levenberg-Marquardt loop. */
export interface LoopOptions {
  /** Outer (Gauss-Newton / IRLS) iterations. @default 12 */
  iterations?: number;
  /** Cauchy scale at the start, px. @default 40 */
  scaleStart?: number;
  /** Cauchy scale at the end, px. @default 6 */
  scaleEnd?: number;
  /** Fraction of the iterations over which the scale is annealed (geometrically). @default 0.6 */
  annealFraction?: number;
  /** Conjugate-gradient iterations per step at most (the first step; later steps get `cgLater`). @default 20 */
  cgIterations?: number;
  /** Conjugate-gradient iterations per step after the first, at most. @default cgIterations */
  cgLater?: number;
  /** Relative residual at which conjugate gradients stop. @default 1e-3 */
  cgTolerance?: number;
  /**
   * Precondition with temporal bands around block-Jacobi (symmetric multiplicative Schwarz)
   * rather than block-Jacobi alone (measured slower here for the default weights). @default false
   */
  schwarz?: boolean;
  /** Precondition with symmetric block Gauss-Seidel over frames (else block-Jacobi). @default true */
  gaussSeidel?: boolean;
  /**
   * Rebuild the preconditioner's frame blocks every this many outer iterations (in between
   * they are reused; only a change of damping refactors them). @default 1
   */
  refreshEvery?: number;
  /**
   * Buffers to reuse across loops on one problem size (see {@link createLoopScratch}), so a
   * fit allocates its trial state and preconditioner once. @default fresh buffers per call
   */
  scratch?: LoopScratch;
  /**
   * Buffers per window length for {@link frameLmLoop} and {@link clipLmLoop}, shared by the
   * loops of one fit. @default fresh buffers per call
   */
  windows?: WindowScratch;
  /** Called after each outer iteration (e.g. to fix label swaps); may return true to re-evaluate. */
  onIteration?: (it: number, st: FitState, scale: number) => boolean;
}

/** Buffers {@link lmLoop} and {@link frameLmLoop} can share across calls (same rig and frame count). */
export interface LoopScratch {
  /** The trial state of each step. */
  trial: FitState;
  /** The per-frame block preconditioner. */
  pre: BlockPreconditioner;
  /** Scratch of the gradient and Hessian-vector products. */
  ws: Workspace;
}

/** Buffers per window length (see {@link LoopOptions.windows}), made on first use. */
export type WindowScratch = Map<number, LoopScratch>;

/** The buffers for a window of `data` (its frame count) and `st`, from `windows` or made there. */
function windowScratch(windows: WindowScratch, data: FitData, st: FitState): LoopScratch {
  let scratch = windows.get(data.t);
  if (!scratch) {
    scratch = createLoopScratch(data, st);
    windows.set(data.t, scratch);
  }
  scratch.pre.data = data;
  return scratch;
}

/**
 * Allocates a {@link LoopScratch} for the problem of `data` and states shaped like `st`.
 *
 * ```ts
 * const scratch = createLoopScratch(data, st);
 * frameLmLoop(data, st, { scratch });
 * lmLoop(data, st, { scratch });
 * ```
 */
export function createLoopScratch(data: FitData, st: FitState): LoopScratch {
  return {
    trial: new FitState(data.model, st.t),
    pre: new BlockPreconditioner(data, st),
    ws: createWorkspace(st),
  };
}

function scratchFor(data: FitData, st: FitState, options: LoopOptions): LoopScratch {
  const s = options.scratch;
  if (!s) return createLoopScratch(data, st);
  if (s.trial.t !== st.t || s.trial.b !== st.b || s.pre.data !== data) {
    throw new TypeError(`Expected scratch for ${st.t} frames of this fit's data, got ${s.trial.t} frames.`);
  }
  return s;
}

/** What {@link lmLoop} reports. */
export interface LoopReport {
  iterations: number;
  cgIterations: number;
  /** Steps tried (each a linear solve; a rejected step is retried with more damping). */
  attempts?: number;
  cost: number;
  scale: number;
}

/** The Cauchy scale at outer iteration `it` of `total`. */
export function annealedScale(
  it: number,
  total: number,
  start: number,
  end: number,
  fraction: number,
): number {
  const span = Math.max(1, Math.round(total * fraction));
  const u = Math.min(1, it / span);
  return start * (end / start) ** u;
}

/**
 * Minimises the fit's robust cost from `st` (updated in place) by Levenberg-Marquardt over
 * the whole clip: IRLS weights for the Cauchy loss, each Gauss-Newton step solved by
 * conjugate gradients preconditioned by symmetric block Gauss-Seidel over frames
 * ({@link BlockPreconditioner}: exact frame blocks, the temporal priors' couplings between them).
 */
export function lmLoop(data: FitData, st: FitState, options: LoopOptions = {}): LoopReport {
  const total = options.iterations ?? 12;
  const s0 = options.scaleStart ?? 40;
  const s1 = options.scaleEnd ?? 6;
  const frac = options.annealFraction ?? 0.6;
  const maxCg = options.cgIterations ?? 20;
  const tol = options.cgTolerance ?? 1e-3;
  const { t, k } = data;
  const len = t * st.n;
  const w = robustWeights(t * k);
  const { trial, pre, ws } = scratchFor(data, st, options);
  const schwarz = options.schwarz ?? false;
  const bands = schwarz ? new TemporalBands(data, st) : null;
  const q1 = new Float64Array(len);
  const q2 = new Float64Array(len);
  const g = new Float64Array(len);
  const d = new Float64Array(len);
  const r = new Float64Array(len);
  const z = new Float64Array(len);
  const p = new Float64Array(len);
  const hp = new Float64Array(len);
  let mu = 1e-3;
  let factoredMu = Number.NaN;
  let cgTotal = 0;
  let attempts = 0;
  let cost = 0;
  let scale = s0;
  st.update();
  for (let it = 0; it < total; it++) {
    scale = annealedScale(it, total, s0, s1, frac);
    cost = fitCost(data, st, scale, w);
    fitGradient(data, st, w, ws, g);
    const refresh = options.refreshEvery ?? 1;
    if (it % refresh === 0) {
      pre.rebuild(st, w, 1);
      factoredMu = Number.NaN;
    }
    const damp = pre.damp;
    const hDamped = (v: Float64Array, out: Float64Array): Float64Array => {
      fitHessVec(data, st, w, ws, v, out);
      addDamped(out, v, damp, mu, len);
      return out;
    };
    // z = M^-1 r: block-Jacobi, or temporal -> block -> temporal (symmetric multiplicative Schwarz).
    const precondition = (res: Float64Array, out: Float64Array): void => {
      if (options.gaussSeidel ?? true) {
        pre.applySgs(st, res, out);
        return;
      }
      if (!bands) {
        pre.apply(res, out);
        return;
      }
      bands.apply(res, out);
      hDamped(out, q1);
      subtract(q1, res, q1, len);
      pre.apply(q1, q2);
      addInto(out, q2, len);
      hDamped(out, q1);
      subtract(q1, res, q1, len);
      bands.apply(q1, q2);
      addInto(out, q2, len);
    };
    for (let attempt = 0; attempt < 6; attempt++) {
      attempts++;
      if (mu !== factoredMu) {
        pre.factor(mu);
        factoredMu = mu;
        bands?.factor(pre, mu, st);
      }
      // Conjugate gradients on (H + mu D) d = -g.
      d.fill(0);
      negate(r, g, len);
      precondition(r, z);
      p.set(z);
      let rz = dot(r, z, len);
      const r0 = Math.sqrt(dot(r, r, len));
      const cap = it === 0 ? maxCg : (options.cgLater ?? maxCg);
      for (let c = 0; c < cap; c++) {
        cgTotal++;
        // hp = (H + mu D) p and p . hp in one pass.
        fitHessVec(data, st, w, ws, p, hp);
        const php = addDampedDot(hp, p, damp, mu, len);
        if (!(php > 0)) break;
        const alpha = rz / php;
        const rr = cgUpdate(d, r, p, hp, alpha, len);
        if (Math.sqrt(rr) < tol * r0) break;
        precondition(r, z);
        const rzNew = dot(r, z, len);
        const beta = rzNew / rz;
        rz = rzNew;
        nextDirection(p, z, beta, len);
      }
      // Predicted decrease of the quadratic model (without damping).
      fitHessVec(data, st, w, ws, d, hp);
      const pred = -(dot(g, d, len) + 0.5 * dot(d, hp, len));
      trial.applyStep(st, d).update();
      const next = fitCost(data, trial, scale);
      const rho = pred > 0 ? (cost - next) / pred : -1;
      if (next < cost && rho > 0) {
        st.copyAll(trial);
        cost = next;
        mu *= Math.max(1 / 3, 1 - (2 * rho - 1) ** 3);
        mu = Math.max(mu, 1e-7);
        break;
      }
      mu *= 4;
    }
    if (options.onIteration?.(it, st, scale)) st.update();
  }
  return { iterations: total, cgIterations: cgTotal, attempts, cost, scale };
}

/** Frames per window of {@link frameLmLoop}: a window's blocks, factors and state (about 1 MB) stay in cache. */
export const FRAME_WINDOW = 32;

/**
 * The frame-wise stage: every frame solved on its own (reprojection, ground, rest; no
 * temporal terms) by Levenberg-Marquardt with its own damping and acceptance, each step an
 * exact Cholesky solve of the frame's block. Fast and robust; it leaves the temporal fit
 * only a small correction. As the frames are independent, the clip is solved in windows of
 * `options.window` frames, all iterations on one window before the next, so a window's
 * blocks, factors and state stay in cache and a long clip costs the same per frame as a
 * short one (the result is the same as over the whole clip at once).
 */
export function frameLmLoop(
  data: FitData,
  st: FitState,
  options: LoopOptions & {
    /** Frames per window. @default FRAME_WINDOW */ window?: number;
  } = {},
): LoopReport {
  const full = data.weights;
  data.weights = fitWeights({ ...full, jerk: 0, velocity: 0, rootJerk: 0, rootTurnJerk: 0, jointAccel: 0 });
  const size = Math.max(1, Math.floor(options.window ?? FRAME_WINDOW));
  const windows = options.windows ?? new Map<number, LoopScratch>();
  let cost = 0;
  let scale = options.scaleStart ?? 40;
  try {
    for (let f0 = 0; f0 < st.t; f0 += size) {
      const len = Math.min(size, st.t - f0);
      const d = frameWindow(data, f0, len);
      const s = st.frames(f0, len);
      const r = frameLmWindow(d, s, options, windowScratch(windows, d, s));
      cost += r.cost;
      scale = r.scale;
    }
  } finally {
    data.weights = full;
  }
  return { iterations: options.iterations ?? 8, cgIterations: 0, cost, scale };
}

/** {@link frameLmLoop} on one window (`data.weights` without the temporal terms). */
function frameLmWindow(data: FitData, st: FitState, options: LoopOptions, scratch: LoopScratch): LoopReport {
  const total = options.iterations ?? 8;
  const s0 = options.scaleStart ?? 40;
  const s1 = options.scaleEnd ?? 6;
  const frac = options.annealFraction ?? 0.6;
  const { t, k } = data;
  const n = st.n;
  const w = robustWeights(t * k);
  const { trial, pre, ws } = scratch;
  const g = new Float64Array(t * n);
  const d = new Float64Array(t * n);
  const mu = new Float64Array(t).fill(1e-3);
  const cur = new Float64Array(t);
  const next = new Float64Array(t);
  const active = new Uint8Array(t);
  let scale = s0;
  st.update();
  for (let it = 0; it < total; it++) {
    scale = annealedScale(it, total, s0, s1, frac);
    frameCosts(data, st, scale, cur, undefined, w);
    fitGradient(data, st, w, ws, g);
    pre.rebuild(st, w, 1);
    active.fill(1);
    for (let attempt = 0; attempt < 5; attempt++) {
      pre.factor(mu, active);
      negate(g, g, g.length);
      pre.apply(g, d, active);
      negate(g, g, g.length);
      trial.applyStep(st, d, 1, active).update(active);
      frameCosts(data, trial, scale, next, active);
      let left = 0;
      for (let f = 0; f < t; f++) {
        if (!active[f]) continue;
        if ((next[f] as number) < (cur[f] as number)) {
          st.copyFrame(trial, f);
          mu[f] = Math.max(1e-7, (mu[f] as number) / 3);
          active[f] = 0;
        } else {
          mu[f] = (mu[f] as number) * 8;
          left++;
        }
      }
      if (left === 0) break;
    }
  }
  return { iterations: total, cgIterations: 0, cost: cur.reduce((a, b) => a + b, 0), scale };
}

/** Frames per window of {@link clipLmLoop} at most (its own frames; the pads come on top). */
export const CLIP_WINDOW = 160;
/** Frames of context {@link clipLmLoop} solves on each side of a window's own frames. */
export const CLIP_PAD = 8;

/**
 * The whole-clip stage ({@link lmLoop}) on a clip of any length at the cost per frame of a
 * short one: a clip longer than `window` frames is cut into near-equal runs of at most
 * `window` frames, each solved with `pad` frames of context on either side (the temporal
 * priors reach 3 frames); a run keeps its own solution, its left pad is put back to the
 * previous run's, its right pad is the next run's start. The conjugate-gradient loop's working
 * set (frame factors, state, vectors: about 28 KB a frame for the wolf) then stays near that
 * of T = 190 however long the clip; over the whole of a 480-frame clip at once it is 13 MB,
 * past what the cache shared with the machine's other work holds, and each frame costs a
 * third more.
 */
export function clipLmLoop(
  data: FitData,
  st: FitState,
  options: LoopOptions & {
    /** Own frames per window at most. @default CLIP_WINDOW */ window?: number;
    /** Frames of context on each side. @default CLIP_PAD */ pad?: number;
  } = {},
): LoopReport {
  const { t } = data;
  const size = Math.max(1, Math.min(data.t, Math.floor(options.window ?? CLIP_WINDOW)));
  const pad = Math.max(0, Math.floor(options.pad ?? CLIP_PAD));
  const windows = options.windows ?? new Map<number, LoopScratch>();
  const runs = Math.ceil(t / size);
  const report: Required<LoopReport> = { iterations: 0, cgIterations: 0, attempts: 0, cost: 0, scale: 0 };
  let held: FitState | null = null;
  for (let i = 0; i < runs; i++) {
    const c0 = Math.round((i * t) / runs);
    const c1 = Math.round(((i + 1) * t) / runs);
    const w0 = Math.max(0, c0 - pad);
    const w1 = Math.min(t, c1 + pad);
    // The left pad belongs to the previous run, whose solution stays.
    if (c0 > w0) held = new FitState(data.model, c0 - w0).copyAll(st.frames(w0, c0 - w0));
    const d = runs === 1 ? data : frameWindow(data, w0, w1 - w0);
    const s = runs === 1 ? st : st.frames(w0, w1 - w0);
    const r = lmLoop(d, s, { ...options, scratch: windowScratch(windows, d, s) });
    if (held && c0 > w0) st.frames(w0, c0 - w0).copyAll(held);
    report.iterations = r.iterations;
    report.cgIterations += r.cgIterations;
    report.attempts += r.attempts ?? 0;
    report.cost += r.cost;
    report.scale = r.scale;
  }
  return report;
}

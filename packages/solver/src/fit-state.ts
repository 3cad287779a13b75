import { keypointsFromPose, mul3, poseFrame } from './forward-kinematics.js';
import type { RigModel } from './rig-model.js';

/** Sigmoid parameters are kept in [-P_MAX, P_MAX] (angles within 0.02% of a limit at most). */
export const P_MAX = 8.5;

/** Angle steps stop this fraction of the range inside a limit. */
const ANGLE_MARGIN = 1e-4;

/**
 * The fit's variables for T frames and what FK derives from them. Per frame the variable
 * vector has n = 3 + 3B entries: root translation (3), root rotation increment (3, world axes
 * about the root head, in bone 0's slot), then per bone b >= 1 the three sigmoid parameters of
 * its Euler angles: e = lo + (hi - lo) * sigmoid(p).
 */
export class FitState {
  readonly t: number;
  readonly b: number;
  readonly k: number;
  readonly n: number;
  /** Root rotation per frame (T x 9, column-major). */
  rootRot: Float64Array;
  /** Root head displacement per frame (T x 3). */
  trans: Float64Array;
  /** Sigmoid parameters (T x B x 3; bone 0 unused). */
  p: Float64Array;
  /** Euler angles (T x B x 3). */
  e: Float64Array;
  /** de/dp (T x B x 3; 0 for fixed axes; 1 in bone 0's slot). */
  s: Float64Array;
  /** Posed bone rotations (T x B x 9) and heads (T x B x 3). */
  rot: Float64Array;
  pos: Float64Array;
  /** World rotation axes of each bone's Euler angles (T x B x 9: axis x, y, z); bone 0: identity. */
  axes: Float64Array;
  /** Keypoints (T x K x 3). */
  x: Float64Array;
  /**
   * Whether steps are taken in angle space (the default): the Jacobian is taken with respect
   * to the Euler angles and a step moves the angles, which are then put back through the
   * sigmoid (clamped 1e-4 of the range inside the limits), so a parameter can never freeze in
   * the sigmoid's flat tail. With `false`, steps move the sigmoid parameters themselves.
   */
  angleSteps = true;

  /**
   * A state of `frames` frames, zeroed; with `share`, a view of frames `share.first ..
   * share.first + frames - 1` of `share.state` instead (see {@link FitState.frames}).
   */
  constructor(
    readonly model: RigModel,
    frames: number,
    share?: { state: FitState; first: number },
  ) {
    this.t = frames;
    this.b = model.bones.length;
    this.k = model.keypoints.length;
    this.n = 3 + 3 * this.b;
    const { b, k } = this;
    const o = share?.state;
    const f0 = share?.first ?? 0;
    const arr = (from: Float64Array | undefined, w: number): Float64Array =>
      from ? from.subarray(f0 * w, (f0 + frames) * w) : new Float64Array(frames * w);
    this.rootRot = arr(o?.rootRot, 9);
    this.trans = arr(o?.trans, 3);
    this.p = arr(o?.p, b * 3);
    this.e = arr(o?.e, b * 3);
    this.s = arr(o?.s, b * 3);
    this.rot = arr(o?.rot, b * 9);
    this.pos = arr(o?.pos, b * 3);
    this.axes = arr(o?.axes, b * 9);
    this.x = arr(o?.x, k * 3);
    if (o) this.angleSteps = o.angleSteps;
  }

  /**
   * A view of frames `f0 .. f0 + len - 1`: a state of `len` frames whose arrays share this
   * state's memory, so what is done to the view is done to those frames here.
   *
   * ```ts
   * const head = st.frames(0, 32); // frames 0..31
   * ```
   */
  frames(f0: number, len: number): FitState {
    if (!(Number.isInteger(f0) && Number.isInteger(len) && f0 >= 0 && len >= 1 && f0 + len <= this.t)) {
      throw new TypeError(`Expected frames within 0..${this.t - 1}, got ${f0} + ${len}.`);
    }
    return new FitState(this.model, len, { state: this, first: f0 });
  }

  /** Copies frame `f`'s variables and derived arrays from `o`. */
  copyFrame(o: FitState, f: number): this {
    const { b, k } = this;
    const span = (a: Float64Array, from: Float64Array, w: number): void =>
      a.set(from.subarray(f * w, (f + 1) * w), f * w);
    span(this.rootRot, o.rootRot, 9);
    span(this.trans, o.trans, 3);
    span(this.p, o.p, b * 3);
    span(this.e, o.e, b * 3);
    span(this.s, o.s, b * 3);
    span(this.rot, o.rot, b * 9);
    span(this.pos, o.pos, b * 3);
    span(this.axes, o.axes, b * 9);
    span(this.x, o.x, k * 3);
    return this;
  }

  /** Copies the variables (not the derived arrays) of `o`. */
  copyFrom(o: FitState): this {
    this.rootRot.set(o.rootRot);
    this.trans.set(o.trans);
    this.p.set(o.p);
    return this;
  }

  /** Copies the variables and every derived array of `o` (no FK needed afterwards). */
  copyAll(o: FitState): this {
    this.copyFrom(o);
    this.e.set(o.e);
    this.s.set(o.s);
    this.rot.set(o.rot);
    this.pos.set(o.pos);
    this.axes.set(o.axes);
    this.x.set(o.x);
    return this;
  }

  /** Recomputes angles, FK, axes and keypoints from the variables (of the frames in `only`, else all). */
  update(only?: Uint8Array): this {
    const b = this.b;
    if (scratch.rot.length < b * 9) {
      scratch.rot = new Float64Array(b * 9);
      scratch.pos = new Float64Array(b * 3);
      scratch.pre = new Float64Array(b * 9);
    }
    for (let f = 0; f < this.t; f++) if (!only || only[f]) this.updateFrame(f);
    return this;
  }

  /** {@link update} of frame f (a method of its own: it is optimised after a few frames). */
  private updateFrame(f: number): void {
    const { model, b, k } = this;
    const lim = model.limits;
    for (let i = 1; i < b; i++) {
      for (let a = 0; a < 3; a++) {
        const o = (f * b + i) * 3 + a;
        const lo = lim[i * 6 + 2 * a] as number;
        const w = (lim[i * 6 + 2 * a + 1] as number) - lo;
        const sg = 1 / (1 + Math.exp(-(this.p[o] as number)));
        this.e[o] = lo + w * sg;
        this.s[o] = this.angleSteps ? (w > 0 ? 1 : 0) : w * sg * (1 - sg);
      }
    }
    for (let a = 0; a < 3; a++) this.s[f * b * 3 + a] = 1;
    const { rot, pos, pre } = scratch;
    const m = scratch.m;
    poseFrame(model, this.rootRot, f * 9, this.trans, f * 3, this.e, f * b * 3, rot, pos, pre);
    this.rot.set(rot.subarray(0, b * 9), f * b * 9);
    this.pos.set(pos.subarray(0, b * 3), f * b * 3);
    keypointsFromPose(model, rot, pos, this.x, f * k * 3);
    const ax = this.axes;
    const base = f * b * 9;
    ax[base] = 1;
    ax[base + 1] = 0;
    ax[base + 2] = 0;
    ax[base + 3] = 0;
    ax[base + 4] = 1;
    ax[base + 5] = 0;
    ax[base + 6] = 0;
    ax[base + 7] = 0;
    ax[base + 8] = 1;
    for (let i = 1; i < b; i++) {
      const eo = (f * b + i) * 3;
      const cy = Math.cos(this.e[eo + 1] as number);
      const sy = Math.sin(this.e[eo + 1] as number);
      const cz = Math.cos(this.e[eo + 2] as number);
      const sz = Math.sin(this.e[eo + 2] as number);
      // Local axes: x -> Rz Ry ex, y -> Rz ey, z -> ez; world = pre * local.
      m[0] = cz * cy;
      m[1] = sz * cy;
      m[2] = -sy;
      m[3] = -sz;
      m[4] = cz;
      m[5] = 0;
      m[6] = 0;
      m[7] = 0;
      m[8] = 1;
      mul3(ax, base + i * 9, pre, i * 9, m, 0);
    }
  }

  /** Writes per-frame Euler angles in motion.json's shape (root's entry zero). */
  eulerOf(f: number, i: number, out: number[]): number[] {
    const o = (f * this.b + i) * 3;
    out[0] = i === 0 ? 0 : (this.e[o] as number);
    out[1] = i === 0 ? 0 : (this.e[o + 1] as number);
    out[2] = i === 0 ? 0 : (this.e[o + 2] as number);
    return out;
  }

  /**
   * Applies a step `d` (T x n) to `from`'s variables: trans += d, rootRot = exp(d_rot) *
   * rootRot, and per bone angle either e += d (angle steps; `from`'s angles must be up to date)
   * or p += d (clamped to +-{@link P_MAX}); only the frames in `only` when given. Call
   * {@link update} afterwards.
   */
  applyStep(from: FitState, d: Float64Array, scale = 1, only?: Uint8Array): this {
    for (let f = 0; f < this.t; f++) if (!only || only[f]) this.applyStepFrame(from, d, scale, f);
    return this;
  }

  /** {@link applyStep} of frame f (a method of its own: it is optimised after a few frames). */
  private applyStepFrame(from: FitState, d: Float64Array, scale: number, f: number): void {
    const { b, n } = this;
    const r = scratch.r;
    const o = f * n;
    for (let a = 0; a < 3; a++)
      this.trans[f * 3 + a] = (from.trans[f * 3 + a] as number) + scale * (d[o + a] as number);
    rotationFromVector(
      r,
      scale * (d[o + 3] as number),
      scale * (d[o + 4] as number),
      scale * (d[o + 5] as number),
    );
    mul3(this.rootRot, f * 9, r, 0, from.rootRot, f * 9);
    orthonormalize(this.rootRot, f * 9);
    const lim = this.model.limits;
    for (let i = 1; i < b; i++) {
      for (let a = 0; a < 3; a++) {
        const po = (f * b + i) * 3 + a;
        const step = scale * (d[o + 3 + 3 * i + a] as number);
        if (this.angleSteps) {
          const lo = lim[i * 6 + 2 * a] as number;
          const w = (lim[i * 6 + 2 * a + 1] as number) - lo;
          if (!(w > 0)) continue;
          const u = Math.min(
            1 - ANGLE_MARGIN,
            Math.max(ANGLE_MARGIN, ((from.e[po] as number) + step - lo) / w),
          );
          this.p[po] = Math.log(u / (1 - u));
        } else {
          this.p[po] = Math.max(-P_MAX, Math.min(P_MAX, (from.p[po] as number) + step));
        }
      }
    }
  }

  /** Sets bone `i`'s Euler angles at frame `f` (clamped inside the limits, `margin` of the range from either end). */
  setEuler(f: number, i: number, e: ArrayLike<number>, margin = 1e-3): void {
    const lim = this.model.limits;
    for (let a = 0; a < 3; a++) {
      const lo = lim[i * 6 + 2 * a] as number;
      const w = (lim[i * 6 + 2 * a + 1] as number) - lo;
      const o = (f * this.b + i) * 3 + a;
      if (!(w > 0)) {
        this.p[o] = 0;
        continue;
      }
      const u = Math.min(1 - margin, Math.max(margin, ((e[a] as number) - lo) / w));
      this.p[o] = Math.max(-P_MAX, Math.min(P_MAX, Math.log(u / (1 - u))));
    }
  }
}

const scratch = {
  rot: new Float64Array(0),
  pos: new Float64Array(0),
  pre: new Float64Array(0),
  m: new Float64Array(9),
  r: new Float64Array(9),
};

/** Rodrigues: the rotation by |w| about w (column-major). */
export function rotationFromVector(out: Float64Array, wx: number, wy: number, wz: number): Float64Array {
  const th = Math.hypot(wx, wy, wz);
  if (th < 1e-12) {
    out.set([1, wz, -wy, -wz, 1, wx, wy, -wx, 1]);
    return out;
  }
  const x = wx / th;
  const y = wy / th;
  const z = wz / th;
  const c = Math.cos(th);
  const s = Math.sin(th);
  const u = 1 - c;
  out[0] = c + x * x * u;
  out[1] = y * x * u + z * s;
  out[2] = z * x * u - y * s;
  out[3] = x * y * u - z * s;
  out[4] = c + y * y * u;
  out[5] = z * y * u + x * s;
  out[6] = x * z * u + y * s;
  out[7] = y * z * u - x * s;
  out[8] = c + z * z * u;
  return out;
}

/** Re-orthonormalises a rotation (Gram-Schmidt on its columns) against drift. */
function orthonormalize(m: Float64Array, o: number): void {
  let n = Math.hypot(m[o] as number, m[o + 1] as number, m[o + 2] as number);
  for (let i = 0; i < 3; i++) m[o + i] = (m[o + i] as number) / n;
  const d =
    (m[o] as number) * (m[o + 3] as number) +
    (m[o + 1] as number) * (m[o + 4] as number) +
    (m[o + 2] as number) * (m[o + 5] as number);
  for (let i = 0; i < 3; i++) m[o + 3 + i] = (m[o + 3 + i] as number) - d * (m[o + i] as number);
  n = Math.hypot(m[o + 3] as number, m[o + 4] as number, m[o + 5] as number);
  for (let i = 0; i < 3; i++) m[o + 3 + i] = (m[o + 3 + i] as number) / n;
  m[o + 6] = (m[o + 1] as number) * (m[o + 5] as number) - (m[o + 2] as number) * (m[o + 4] as number);
  m[o + 7] = (m[o + 2] as number) * (m[o + 3] as number) - (m[o] as number) * (m[o + 5] as number);
  m[o + 8] = (m[o] as number) * (m[o + 4] as number) - (m[o + 1] as number) * (m[o + 3] as number);
}

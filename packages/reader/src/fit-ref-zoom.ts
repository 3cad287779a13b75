import type { Layout } from '@mocap/layout';
import { type RgbImage, studioBackdrop } from '@mocap/media';
import type { ClipCalib } from './calib-at.js';
import { layoutLines } from './measure-backdrop.js';
import { choleskySolve } from './refine/refine-pose.js';

/** What {@link fitRefZoom} found: the zoom and how well ref.png matches the frame there. */
export interface RefZoom {
  /** Factor on the frame's own scale (1: the clip is the layout resized to the frame). */
  zoom: number;
  /** Robust rms grey-level residual of the frame against its model (below) at `zoom` and at zoom 1. */
  rms: number;
  rmsAtOne: number;
  /**
   * How much of ref.png's creature the frame shows: the frame is modelled as a gain and offset of
   * `creature` x ref.png + (1 - `creature`) x the empty studio, so 1 for a frame that shows the
   * creature as ref.png does, 0 for the empty studio (the first frame of a fade), between in a fade.
   */
  creature: number;
  /**
   * At `zoom`, the rms residual where ref.png or the frame shows the creature (a colour that is not
   * the studio's) and where both show the studio (the frame's noise): about equal when the frame
   * shows the creature as ref.png does, the creature's far larger once it has moved.
   */
  creatureRms: number;
  backdropRms: number;
}

function luma(img: RgbImage): Float32Array {
  const g = new Float32Array(img.width * img.height);
  for (let i = 0, p = 0; i < g.length; i++, p += 3) {
    g[i] = 0.299 * img.data[p]! + 0.587 * img.data[p + 1]! + 0.114 * img.data[p + 2]!;
  }
  return g;
}

/** Residuals beyond this (grey levels) count as this: the creature's pose differs from ref.png's. */
const CAP = 30;

/** Terms of the frame's model: ref.png, the studio, an offset, and the studio's light falling off toward the frame's edges. */
const TERMS = 7;

/** The model's terms for a sample: ref.png `r`, studio `s` (grey levels) at clip position (X, Y) in [-1, 1]. */
function terms(out: Float64Array, r: number, s: number, X: number, Y: number): Float64Array {
  const x2 = X * X;
  const y2 = Y * Y;
  out[0] = r;
  out[1] = s;
  out[2] = 1;
  // a vignette (or any light that falls off toward the edges) scales what the frame shows there
  out[3] = s * x2;
  out[4] = s * y2;
  out[5] = s * x2 * x2;
  out[6] = s * y2 * y2;
  return out;
}

const row = new Float64Array(TERMS);

/** The model's value for sample k under parameters p. */
function predict(p: ArrayLike<number>, r: number, s: number, X: number, Y: number): number {
  terms(row, r, s, X, Y);
  let v = 0;
  for (let i = 0; i < TERMS; i++) v += p[i]! * row[i]!;
  return v;
}

/** Least squares c ~ a r + b s + o + the light's fall-off ({@link terms}) over the points kept; null when degenerate. */
function fitBlend(
  r: number[],
  s: number[],
  X: number[],
  Y: number[],
  c: number[],
  keep: (k: number) => boolean,
): number[] | null {
  // the normal equations (lower triangle, right side) unrolled: the sums a loop over terms() would
  // make, in its order, in less time (docs/benchmarks.md)
  let a00 = 0,
    a10 = 0,
    a11 = 0,
    a20 = 0,
    a21 = 0,
    a22 = 0,
    a30 = 0,
    a31 = 0,
    a32 = 0,
    a33 = 0,
    a40 = 0,
    a41 = 0,
    a42 = 0,
    a43 = 0,
    a44 = 0,
    a50 = 0,
    a51 = 0,
    a52 = 0,
    a53 = 0,
    a54 = 0,
    a55 = 0,
    a60 = 0,
    a61 = 0,
    a62 = 0,
    a63 = 0,
    a64 = 0,
    a65 = 0,
    a66 = 0,
    y0 = 0,
    y1 = 0,
    y2 = 0,
    y3 = 0,
    y4 = 0,
    y5 = 0,
    y6 = 0;
  let m = 0;
  for (let k = 0; k < r.length; k++) {
    if (!keep(k)) continue;
    const xx = X[k]! * X[k]!;
    const yy = Y[k]! * Y[k]!;
    const f0 = r[k]!;
    const f1 = s[k]!;
    const f2 = 1;
    const f3 = f1 * xx;
    const f4 = f1 * yy;
    const f5 = f1 * xx * xx;
    const f6 = f1 * yy * yy;
    const ck = c[k]!;
    y0 += f0 * ck;
    a00 += f0 * f0;
    y1 += f1 * ck;
    a10 += f1 * f0;
    a11 += f1 * f1;
    y2 += f2 * ck;
    a20 += f2 * f0;
    a21 += f2 * f1;
    a22 += f2 * f2;
    y3 += f3 * ck;
    a30 += f3 * f0;
    a31 += f3 * f1;
    a32 += f3 * f2;
    a33 += f3 * f3;
    y4 += f4 * ck;
    a40 += f4 * f0;
    a41 += f4 * f1;
    a42 += f4 * f2;
    a43 += f4 * f3;
    a44 += f4 * f4;
    y5 += f5 * ck;
    a50 += f5 * f0;
    a51 += f5 * f1;
    a52 += f5 * f2;
    a53 += f5 * f3;
    a54 += f5 * f4;
    a55 += f5 * f5;
    y6 += f6 * ck;
    a60 += f6 * f0;
    a61 += f6 * f1;
    a62 += f6 * f2;
    a63 += f6 * f3;
    a64 += f6 * f4;
    a65 += f6 * f5;
    a66 += f6 * f6;
    m++;
  }
  if (m < 10) return null;
  // the symmetric 7 x 7 matrix, row by row
  const A = Float64Array.of(
    a00,
    a10,
    a20,
    a30,
    a40,
    a50,
    a60,
    a10,
    a11,
    a21,
    a31,
    a41,
    a51,
    a61,
    a20,
    a21,
    a22,
    a32,
    a42,
    a52,
    a62,
    a30,
    a31,
    a32,
    a33,
    a43,
    a53,
    a63,
    a40,
    a41,
    a42,
    a43,
    a44,
    a54,
    a64,
    a50,
    a51,
    a52,
    a53,
    a54,
    a55,
    a65,
    a60,
    a61,
    a62,
    a63,
    a64,
    a65,
    a66,
  );
  const y = Float64Array.of(y0, y1, y2, y3, y4, y5, y6);
  // A small ridge: ref.png and the studio agree on most points, and the light is mostly even.
  for (let i = 0; i < TERMS; i++) A[(TERMS + 1) * i]! += (i < 2 ? 1e-3 : 1e-2) * A[(TERMS + 1) * i]! + 1e-6;
  return choleskySolve(A, y, TERMS) ? Array.from(y) : null;
}

/**
 * The zoom that lines ref.png's creature up with a clip frame whose divider (clip u `du`) and
 * ground row (clip v `dv`) are known: the calibration is sx = zoom nx, tx = divider - sx du (and
 * the same on v with the ground row), so the lines stay put and only the scale about them is
 * fitted. For an axis the studio shows no edge on: a generated clip starts at ref.png, so its
 * first frames show the creature at ref.png's size. The frame is modelled as a blend of ref.png
 * and the empty studio (a fade) under a gain and offset (colour drift); a grid search over
 * [0.75, 1.33] then a golden-section refinement; residuals are capped (a leg that moved is not a
 * misfit of the zoom).
 *
 * ```ts
 * const z = fitRefZoom(frame, ref, layout, divider.at, ground.at, layout.WIDTH / frame.width, layout.HEIGHT / frame.height);
 * ```
 */
export function fitRefZoom(
  frame: RgbImage,
  ref: RgbImage,
  layout: Layout,
  du: number,
  dv: number,
  nx: number,
  ny: number,
): RefZoom {
  const fg = luma(frame);
  const rg = luma(ref);
  const sg = luma(studioBackdrop(layout));
  const lines = layoutLines(layout);
  const { width: w, height: h } = frame;
  const studio = [layout.colours.wall, layout.colours.floor, layout.colours.divider].map(
    ([r, g, b]) => 0.299 * r + 0.587 * g + 0.114 * b,
  );
  const calibOf = (z: number): ClipCalib => {
    const sx = z * nx;
    const sy = z * ny;
    return { sx, sy, tx: lines.divider - sx * du, ty: lines.ground - sy * dv };
  };
  const fit = (z: number, step: number) => {
    const c = calibOf(z);
    const rs: number[] = [];
    const ss: number[] = [];
    const cs: number[] = [];
    const xs: number[] = [];
    const ys: number[] = [];
    for (let V = step / 2; V < ref.height; V += step) {
      const v = (V - c.ty) / c.sy - 0.5;
      const y0 = Math.floor(v);
      if (y0 < 0 || y0 + 1 >= h) continue;
      const fy = v - y0;
      for (let U = step / 2; U < ref.width; U += step) {
        const u = (U - c.tx) / c.sx - 0.5;
        const x0 = Math.floor(u);
        if (x0 < 0 || x0 + 1 >= w) continue;
        const fx = u - x0;
        const i = y0 * w + x0;
        const top = fg[i]! + (fg[i + 1]! - fg[i]!) * fx;
        const bot = fg[i + w]! + (fg[i + w + 1]! - fg[i + w]!) * fx;
        cs.push(top + (bot - top) * fy);
        const at = Math.floor(V) * ref.width + Math.floor(U);
        rs.push(rg[at]!);
        ss.push(sg[at]!);
        xs.push((2 * u) / w - 1);
        ys.push((2 * v) / h - 1);
      }
    }
    let p = fitBlend(rs, ss, xs, ys, cs, () => true);
    if (p) {
      const q = p;
      p =
        fitBlend(
          rs,
          ss,
          xs,
          ys,
          cs,
          (k) => Math.abs(predict(q, rs[k]!, ss[k]!, xs[k]!, ys[k]!) - cs[k]!) <= CAP,
        ) ?? p;
    }
    return { rs, ss, xs, ys, cs, p };
  };
  const cost = (z: number, step: number): number => {
    const { rs, ss, xs, ys, cs, p } = fit(z, step);
    if (!p || rs.length < 100) return Number.POSITIVE_INFINITY;
    let s = 0;
    for (let k = 0; k < rs.length; k++)
      s += Math.min(CAP * CAP, (predict(p, rs[k]!, ss[k]!, xs[k]!, ys[k]!) - cs[k]!) ** 2);
    return s / rs.length;
  };
  let best = 1;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let z = 0.75; z <= 1.3334; z += 0.01) {
    const c = cost(z, 6);
    if (c < bestCost) {
      bestCost = c;
      best = z;
    }
  }
  // Golden section on [best - 0.012, best + 0.012] at a finer sampling.
  const g = (Math.sqrt(5) - 1) / 2;
  let a = best - 0.012;
  let b = best + 0.012;
  let x1 = b - g * (b - a);
  let x2 = a + g * (b - a);
  let c1 = cost(x1, 3);
  let c2 = cost(x2, 3);
  while (b - a > 2e-4) {
    if (c1 < c2) {
      b = x2;
      x2 = x1;
      c2 = c1;
      x1 = b - g * (b - a);
      c1 = cost(x1, 3);
    } else {
      a = x1;
      x1 = x2;
      c1 = c2;
      x2 = a + g * (b - a);
      c2 = cost(x2, 3);
    }
  }
  const zoom = (a + b) / 2;
  const { rs, ss, xs, ys, cs, p } = fit(zoom, 2);
  let creatureSq = 0;
  let nc = 0;
  let backdropSq = 0;
  let nb = 0;
  let all = 0;
  const q = p ?? [1, 0, 0, 0, 0, 0, 0];
  const [pa, pb, po] = q;
  for (let k = 0; k < rs.length; k++) {
    const model = predict(q, rs[k]!, ss[k]!, xs[k]!, ys[k]!);
    const e2 = (model - cs[k]!) ** 2;
    all += Math.min(CAP * CAP, e2);
    // the studio's grey levels under the gain and light the sample's place has
    const lit = predict(q, 1, 1, xs[k]!, ys[k]!) - po!;
    if (Math.abs(rs[k]! - ss[k]!) < 6 && studio.some((v) => Math.abs(v * lit + po! - cs[k]!) < 8)) {
      backdropSq += e2;
      nb++;
    } else {
      creatureSq += e2;
      nc++;
    }
  }
  return {
    zoom,
    rms: Math.sqrt(all / Math.max(1, rs.length)),
    rmsAtOne: Math.sqrt(cost(1, 2)),
    creature: pa! + pb! > 1e-6 ? pa! / (pa! + pb!) : 0,
    creatureRms: Math.sqrt(creatureSq / Math.max(1, nc)),
    backdropRms: Math.sqrt(backdropSq / Math.max(1, nb)),
  };
}

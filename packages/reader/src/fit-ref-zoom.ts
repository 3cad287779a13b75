import type { Layout } from '@mocap/layout';
import { type RgbImage, studioBackdrop } from '@mocap/media';
import type { ClipCalib } from './calib-at.js';
import { layoutLines } from './measure-backdrop.js';

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

/** Least squares c ~ a r + b s + o over the points kept; null when degenerate. */
function fitBlend(r: number[], s: number[], c: number[], keep: (k: number) => boolean): number[] | null {
  const A = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const y = [0, 0, 0];
  let m = 0;
  for (let k = 0; k < r.length; k++) {
    if (!keep(k)) continue;
    const x = [r[k]!, s[k]!, 1];
    for (let i = 0; i < 3; i++) {
      y[i]! += x[i]! * c[k]!;
      for (let j = 0; j < 3; j++) A[3 * i + j]! += x[i]! * x[j]!;
    }
    m++;
  }
  if (m < 10) return null;
  // A small ridge: ref.png and the studio agree on most points.
  for (let i = 0; i < 2; i++) A[4 * i]! += 1e-3 * A[4 * i]! + 1e-6;
  const [a, b, c2, d, e, f, g, h, i] = A as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c2 * (d * h - e * g);
  if (Math.abs(det) < 1e-12) return null;
  const inv = [
    e * i - f * h,
    c2 * h - b * i,
    b * f - c2 * e,
    f * g - d * i,
    a * i - c2 * g,
    c2 * d - a * f,
    d * h - e * g,
    b * g - a * h,
    a * e - b * d,
  ].map((v) => v / det);
  return [0, 1, 2].map(
    (row) => inv[3 * row]! * y[0]! + inv[3 * row + 1]! * y[1]! + inv[3 * row + 2]! * y[2]!,
  );
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
      }
    }
    let p = fitBlend(rs, ss, cs, () => true);
    if (p) {
      const q = p;
      p = fitBlend(rs, ss, cs, (k) => Math.abs(q[0]! * rs[k]! + q[1]! * ss[k]! + q[2]! - cs[k]!) <= CAP) ?? p;
    }
    return { rs, ss, cs, p };
  };
  const cost = (z: number, step: number): number => {
    const { rs, ss, cs, p } = fit(z, step);
    if (!p || rs.length < 100) return Number.POSITIVE_INFINITY;
    let s = 0;
    for (let k = 0; k < rs.length; k++)
      s += Math.min(CAP * CAP, (p[0]! * rs[k]! + p[1]! * ss[k]! + p[2]! - cs[k]!) ** 2);
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
  const { rs, ss, cs, p } = fit(zoom, 2);
  let creatureSq = 0;
  let nc = 0;
  let backdropSq = 0;
  let nb = 0;
  let all = 0;
  const [pa, pb, po] = p ?? [1, 0, 0];
  for (let k = 0; k < rs.length; k++) {
    const model = pa! * rs[k]! + pb! * ss[k]! + po!;
    const e2 = (model - cs[k]!) ** 2;
    all += Math.min(CAP * CAP, e2);
    const gain = pa! + pb!;
    if (Math.abs(rs[k]! - ss[k]!) < 6 && studio.some((v) => Math.abs(v * gain + po! - cs[k]!) < 8)) {
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

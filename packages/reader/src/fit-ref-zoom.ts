import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import type { ClipCalib } from './clip-calib.js';
import { layoutLines } from './measure-backdrop.js';

/** What {@link fitRefZoom} found: the zoom and how well ref.png matches the frame there and at zoom 1. */
export interface RefZoom {
  /** Factor on the frame's own scale (1: the clip is the layout resized to the frame). */
  zoom: number;
  /** Robust rms grey-level residual of ref.png against the frame at `zoom` and at zoom 1, after a gain and offset. */
  rms: number;
  rmsAtOne: number;
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

/**
 * The zoom that lines ref.png's creature up with a clip frame whose divider (clip u `du`) and
 * ground row (clip v `dv`) are known: the calibration is sx = zoom nx, tx = divider - sx du (and
 * the same on v with the ground row), so the lines stay put and only the scale about them is
 * fitted. For an axis the studio shows no edge on: a generated clip starts at ref.png, so its
 * first frames show the creature at ref.png's size. A grid search over [0.75, 1.33] then a
 * golden-section refinement; residuals are capped (a leg that moved is not a misfit of the zoom).
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
  const lines = layoutLines(layout);
  const { width: w, height: h } = frame;
  const calibOf = (z: number): ClipCalib => {
    const sx = z * nx;
    const sy = z * ny;
    return { sx, sy, tx: lines.divider - sx * du, ty: lines.ground - sy * dv };
  };
  const studio = [layout.colours.wall, layout.colours.floor, layout.colours.divider].map(
    ([r, g, b]) => 0.299 * r + 0.587 * g + 0.114 * b,
  );
  const isStudio = (v: number) => studio.some((s) => Math.abs(s - v) < 6);
  const split = { creature: 0, nc: 0, backdrop: 0, nb: 0 };
  const cost = (z: number, step: number, keepSplit = false): number => {
    const c = calibOf(z);
    const rs: number[] = [];
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
        rs.push(rg[Math.floor(V) * ref.width + Math.floor(U)]!);
      }
    }
    const n = rs.length;
    if (n < 100) return Number.POSITIVE_INFINITY;
    // Gain and offset by least squares, then once more on the points within the cap.
    let gain = 1;
    let off = 0;
    for (let pass = 0; pass < 2; pass++) {
      let sr = 0;
      let sc = 0;
      let srr = 0;
      let src = 0;
      let m = 0;
      for (let k = 0; k < n; k++) {
        if (pass > 0 && Math.abs(rs[k]! * gain + off - cs[k]!) > CAP) continue;
        sr += rs[k]!;
        sc += cs[k]!;
        srr += rs[k]! * rs[k]!;
        src += rs[k]! * cs[k]!;
        m++;
      }
      const den = m * srr - sr * sr;
      if (m < 10 || Math.abs(den) < 1e-9) break;
      gain = (m * src - sr * sc) / den;
      off = (sc - gain * sr) / m;
    }
    let s = 0;
    for (let k = 0; k < n; k++) {
      const e2 = (rs[k]! * gain + off - cs[k]!) ** 2;
      s += Math.min(CAP * CAP, e2);
      if (!keepSplit) continue;
      if (isStudio(rs[k]!) && studio.some((v) => Math.abs(v * gain + off - cs[k]!) < 8)) {
        split.backdrop += e2;
        split.nb++;
      } else {
        split.creature += e2;
        split.nc++;
      }
    }
    return s / n;
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
  const rms = Math.sqrt(cost(zoom, 2, true));
  return {
    zoom,
    rms,
    rmsAtOne: Math.sqrt(cost(1, 2)),
    creatureRms: Math.sqrt(split.creature / Math.max(1, split.nc)),
    backdropRms: Math.sqrt(split.backdrop / Math.max(1, split.nb)),
  };
}

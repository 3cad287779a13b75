import type { Layout } from '@mocap/layout';
import type { ClipCalib } from './calib-at.js';
import { type BackdropFeatures, layoutLines } from './measure-backdrop.js';

/** One frame's calibration from its studio lines, or why none fits. */
export type BackdropCalib =
  | {
      ok: true;
      calib: ClipCalib;
      /** Per axis, whether the scale was measured (two of the layout's lines or edges seen) or taken from `zoom`. */
      measured: { x: boolean; y: boolean };
      /** The zoom against the frame's own size (1: the clip is the layout resized), per axis. */
      zoom: { x: number; y: number };
    }
  | { ok: false; why: string };

/** Thresholds a frame's studio lines must pass to calibrate it. */
export const BACKDROP_FIT = Object.freeze({
  /** The divider is dark on at least this share of the rows (the layout's runs the full height). */
  dividerShare: 0.6,
  /** ... and at least this many grey levels darker than the wall beside it (the studio's: about 100). */
  dividerContrast: 6,
  /** The ground step shows across at least this share of the columns. */
  groundShare: 0.5,
  /** ... and the floor is at least this many grey levels brighter than the wall (the studio's: 24). */
  groundContrast: 4,
  /** A zoom (against the frame's own size) outside [1 / maxZoom, maxZoom] is not a framing of the layout. */
  maxZoom: 1.45,
  /** The picture covers at least this share of the layout's width and height. */
  cover: 0.6,
  /** Lines and edges of one axis agree with one scale and shift to this many layout px. */
  residualPx: 3,
  /** The divider sits within this share of the picture's width of where the layout has it. */
  dividerSlack: 0.25,
});

const f1 = (x: number) => x.toFixed(1);

/** Least-squares scale and shift through (clip, layout) pairs; the worst residual in layout px. */
function fitAxis(pairs: [number, number][]): { s: number; t: number; worst: number } {
  const n = pairs.length;
  const mc = pairs.reduce((a, [c]) => a + c, 0) / n;
  const ml = pairs.reduce((a, [, l]) => a + l, 0) / n;
  let num = 0;
  let den = 0;
  for (const [c, l] of pairs) {
    num += (c - mc) * (l - ml);
    den += (c - mc) ** 2;
  }
  const s = num / den;
  const t = ml - s * mc;
  return { s, t, worst: Math.max(...pairs.map(([c, l]) => Math.abs(s * c + t - l))) };
}

/**
 * A frame's calibration (layout u = sx clip u + tx, v = sy clip v + ty) from the studio lines
 * {@link measureBackdrop} found: the divider fixes u and the ground row fixes v; the layout's own
 * edges, where a bar or a fill shows them, give the scale of their axis. An axis with no edge in
 * view takes the other axis's zoom, else `zoom` (fitted to ref.png), else the frame's own size
 * (the layout resized to the frame). Says why when the lines are missing or the result is not a
 * framing of the layout (a one-view clip puts the divider at the frame's edge).
 *
 * ```ts
 * const c = calibFromBackdrop(measureBackdrop(frame, layout), layout, null);
 * if (c.ok) c.calib.sx;
 * ```
 */
export function calibFromBackdrop(f: BackdropFeatures, layout: Layout, zoom: number | null): BackdropCalib {
  const { divider, ground } = f;
  const fit = BACKDROP_FIT;
  if (!divider || divider.share < fit.dividerShare || divider.contrast < fit.dividerContrast) {
    return {
      ok: false,
      why: divider
        ? `no divider (the darkest vertical line, at clip u ${f1(divider.at)}, is ${f1(divider.contrast)} grey levels darker than beside it on ${Math.round(100 * divider.share)}% of the rows; the layout's divider is dark over the full height)`
        : 'no divider (no column darker than the ones beside it)',
    };
  }
  if (!ground || ground.share < fit.groundShare || ground.contrast < fit.groundContrast) {
    return {
      ok: false,
      why: ground
        ? `no ground row (the strongest step up, at clip v ${f1(ground.at)}, is ${f1(ground.contrast)} grey levels across ${Math.round(100 * ground.share)}% of the columns; the layout's floor band is brighter than its wall across the full width)`
        : 'no ground row (no row where the frame turns brighter below)',
    };
  }
  const lines = layoutLines(layout);
  const { content } = f;
  const rel = (divider.at - content.x0) / (content.x1 - content.x0);
  const want = lines.divider / layout.WIDTH;
  if (Math.abs(rel - want) > fit.dividerSlack) {
    return {
      ok: false,
      why: `the divider is at ${rel.toFixed(2)} of the picture's width (clip u ${f1(divider.at)}), the layout's at ${want.toFixed(2)}${rel > 0.85 || rel < 0.15 ? ': a clip of one view?' : ''}`,
    };
  }
  const u: [number, number][] = [[divider.at, lines.divider]];
  const v: [number, number][] = [[ground.at, lines.ground]];
  if (f.edges.left !== undefined) u.push([f.edges.left, 0]);
  if (f.edges.right !== undefined) u.push([f.edges.right, layout.WIDTH]);
  if (f.edges.top !== undefined) v.push([f.edges.top, 0]);
  if (f.edges.bottom !== undefined) v.push([f.edges.bottom, layout.HEIGHT]);
  const nomX = layout.WIDTH / (content.x1 - content.x0);
  const nomY = layout.HEIGHT / (content.y1 - content.y0);
  // An axis whose edges disagree with its line, or give no framing of the layout (a false edge: the
  // creature at the frame's border), falls back to its line and the prior zoom.
  const axisFit = (p: [number, number][], nom: number) => {
    if (p.length < 2) return null;
    const a = fitAxis(p);
    const z = a.s / nom;
    return a.s > 0 && a.worst <= fit.residualPx && z <= fit.maxZoom && z >= 1 / fit.maxZoom ? a : null;
  };
  const fx = axisFit(u, nomX);
  const fy = axisFit(v, nomY);
  if (!fx) u.splice(1);
  if (!fy) v.splice(1);
  const zx = fx ? fx.s / nomX : null;
  const zy = fy ? fy.s / nomY : null;
  // Relative uncertainty of an axis's zoom: about half a px over the span of what it was measured on.
  const spread = (p: [number, number][]) => Math.max(...p.map(([c]) => c)) - Math.min(...p.map(([c]) => c));
  const ex = 0.5 / spread(u);
  const ey = 0.5 / spread(v);
  let sx = fx ? fx.s : 0;
  let sy = fy ? fy.s : 0;
  if (zx !== null && zy !== null && Math.abs(zx - zy) < 3 * Math.hypot(ex, ey)) {
    // One zoom explains both axes: the axis with the longer span measures it for both.
    const z = (zx / ex ** 2 + zy / ey ** 2) / (1 / ex ** 2 + 1 / ey ** 2);
    sx = nomX * z;
    sy = nomY * z;
  } else {
    const common = zx ?? zy ?? zoom ?? 1;
    if (!fx) sx = nomX * common;
    if (!fy) sy = nomY * common;
  }
  const shift = (p: [number, number][], s: number) => p.reduce((a, [c, l]) => a + l - s * c, 0) / p.length;
  const calib = { sx, sy, tx: shift(u, sx), ty: shift(v, sy) };
  const z = { x: sx / nomX, y: sy / nomY };
  for (const [axis, zz] of [
    ['u', z.x],
    ['v', z.y],
  ] as const) {
    if (!(zz <= fit.maxZoom && zz >= 1 / fit.maxZoom)) {
      return {
        ok: false,
        why: `the studio's lines give a zoom of ${zz.toFixed(2)} along ${axis} against the frame's own size (a framing of the layout is within ${(1 / fit.maxZoom).toFixed(2)}-${fit.maxZoom})`,
      };
    }
  }
  // The picture (clip content) in layout px must cover most of the layout.
  const coverX =
    (Math.min(layout.WIDTH, calib.sx * content.x1 + calib.tx) -
      Math.max(0, calib.sx * content.x0 + calib.tx)) /
    layout.WIDTH;
  const coverY =
    (Math.min(layout.HEIGHT, calib.sy * content.y1 + calib.ty) -
      Math.max(0, calib.sy * content.y0 + calib.ty)) /
    layout.HEIGHT;
  if (coverX < fit.cover || coverY < fit.cover) {
    return {
      ok: false,
      why: `the frame shows ${Math.round(100 * Math.max(0, coverX))}% of the layout's width and ${Math.round(100 * Math.max(0, coverY))}% of its height when its divider (clip u ${f1(divider.at)}) and ground row (clip v ${f1(ground.at)}) sit where the layout's do (${lines.divider}, ${lines.ground})`,
    };
  }
  return { ok: true, calib, measured: { x: fx !== null, y: fy !== null }, zoom: z };
}

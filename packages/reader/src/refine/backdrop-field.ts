import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { choleskySolve } from './refine-pose.js';

/**
 * Per-pixel colour gains onto a reference backdrop, on a grid of `block` x `block` px: what
 * {@link segmentImage} multiplies a pixel by in place of its frame-wide gains when the backdrop's
 * light is uneven (a vignette, a spotlight, one view darker than the other).
 */
export interface BackdropField {
  block: number;
  /** Blocks per row. */
  columns: number;
  /** Per block, row-major, the R, G and B gains. */
  gains: Float32Array;
  /** The largest departure of a gain from its view's mean, as a share (0.2: 20%). */
  spread: number;
}

/** Options of {@link backdropField}. */
export interface BackdropFieldOptions {
  /** Cell size (px) of the medians the field is fitted to. @default 32 */
  cell?: number;
  /** Block size (px) of the returned gains. @default 16 */
  block?: number;
  /** Below this spread (share) the light is even and null is returned. @default 0.04 */
  minSpread?: number;
}

// 1, u, v, u^2, uv, v^2, u^4, u^2 v^2, v^4 over a view's normalised coordinates
const TERMS = 9;

function basis(out: Float64Array, u: number, v: number): void {
  const u2 = u * u;
  const v2 = v * v;
  out[0] = 1;
  out[1] = u;
  out[2] = v;
  out[3] = u2;
  out[4] = u * v;
  out[5] = v2;
  out[6] = u2 * u2;
  out[7] = u2 * v2;
  out[8] = v2 * v2;
}

/**
 * How the light on a frame's backdrop departs from the reference's, view by view: the median
 * colour of each `cell`-px square wholly on the wall or wholly on the floor (the divider's squares
 * left out) against the reference's wall or floor colour, a smooth surface (quartic in the view's
 * coordinates, per channel, on the log of the ratio) fitted robustly so that squares the creature
 * covers count little, evaluated per `block`-px block. Null when the surface is flat within
 * `minSpread` (a render's studio, an even grade: the frame-wide gains do). Frames in layout px.
 *
 * ```ts
 * const field = backdropField(frame, layout, model.reference);
 * segmentImage(labels, model, frame, layout, field);
 * ```
 */
export function backdropField(
  image: RgbImage,
  layout: Layout,
  reference: ArrayLike<number>,
  options: BackdropFieldOptions = {},
): BackdropField | null {
  const { width: W, height: H, data } = image;
  if (W !== layout.WIDTH || H !== layout.HEIGHT) {
    throw new RangeError(
      `backdropField: expected a ${layout.WIDTH} x ${layout.HEIGHT} frame (layout px), got ${W} x ${H}.`,
    );
  }
  const cell = options.cell ?? 32;
  const block = options.block ?? 16;
  const minSpread = options.minSpread ?? 0.04;
  const columns = Math.ceil(W / block);
  const rows = Math.ceil(H / block);
  const gains = new Float32Array(columns * rows * 3);
  const div0 = layout.W_FRONT - layout.DIVIDER_PX - 1;
  const div1 = layout.W_FRONT + 1;
  const views = [
    { x0: 0, x1: layout.W_FRONT },
    { x0: layout.W_FRONT, x1: W },
  ];
  const phi = new Float64Array(TERMS);
  const samples = new Float32Array(Math.ceil(cell / 4) ** 2);
  let spread = 0;
  for (const view of views) {
    // cell medians against the reference: log ratio per channel, and where
    const cx: number[] = [];
    const cy: number[] = [];
    const ratio: number[][] = [[], [], []];
    for (let y0 = 0; y0 + cell <= H; y0 += cell) {
      const wall = y0 + cell <= layout.GROUND_V;
      const floor = y0 >= layout.GROUND_V;
      if (!wall && !floor) continue;
      for (let x0 = view.x0; x0 + cell <= view.x1; x0 += cell) {
        if (x0 < div1 && x0 + cell > div0) continue;
        const logs = [0, 0, 0];
        let ok = true;
        for (let c = 0; c < 3 && ok; c++) {
          let n = 0;
          // every 4th pixel each way: the median of 64 is as steady on a flat wall, at a quarter of the reads
          for (let y = y0 + 1; y < y0 + cell; y += 4)
            for (let x = x0 + 1; x < x0 + cell; x += 4) samples[n++] = data[3 * (y * W + x) + c];
          const m = median(samples, n);
          const want = reference[(floor ? 3 : 0) + c];
          if (!(m > 4 && want > 4)) ok = false;
          else logs[c] = Math.log(want / m);
        }
        if (!ok) continue;
        cx.push((x0 + cell / 2 - (view.x0 + view.x1) / 2) / ((view.x1 - view.x0) / 2));
        cy.push((y0 + cell / 2 - H / 2) / (H / 2));
        for (let c = 0; c < 3; c++) ratio[c].push(logs[c]);
      }
    }
    const n = cx.length;
    // Even light first, cheaply: the wall's top two rows of squares and the floor's (where the
    // creature seldom is) within minSpread of one another on every channel: no fit for this view.
    if (evenAtEdges(cy, ratio, H, cell, layout.GROUND_V, minSpread)) {
      fillView(gains, view, block, columns, rows, H, null);
      continue;
    }
    const coef: Float64Array[] = [];
    for (let c = 0; c < 3; c++) {
      const r = ratio[c];
      // robust start: the median ratio, squares far from it (the creature) weighted down
      const sorted = Float32Array.from(r);
      const mid = median(sorted, n);
      const w = Float64Array.from(r, (v) => (Math.abs(v - mid) < 0.3 ? 1 : 0));
      let k = Float64Array.of(mid, 0, 0, 0, 0, 0, 0, 0, 0);
      for (let it = 0; it < 4; it++) {
        const a = new Float64Array(TERMS * TERMS);
        const b = new Float64Array(TERMS);
        let used = 0;
        for (let i = 0; i < n; i++) {
          if (!(w[i] > 0)) continue;
          used++;
          basis(phi, cx[i], cy[i]);
          for (let p = 0; p < TERMS; p++) {
            b[p] += w[i] * phi[p] * r[i];
            for (let q = 0; q <= p; q++) a[p * TERMS + q] += w[i] * phi[p] * phi[q];
          }
        }
        if (used < 3 * TERMS) break;
        for (let p = 0; p < TERMS; p++) {
          a[p * TERMS + p] += 1e-6 * (1 + a[p * TERMS + p]);
          for (let q = 0; q < p; q++) a[q * TERMS + p] = a[p * TERMS + q];
        }
        if (!choleskySolve(a, b, TERMS)) break;
        k = b;
        // Tukey's biweight at 0.15 (15% off the surface: the creature, not the light)
        for (let i = 0; i < n; i++) {
          basis(phi, cx[i], cy[i]);
          let e = r[i];
          for (let p = 0; p < TERMS; p++) e -= k[p] * phi[p];
          const z = e / 0.15;
          w[i] = Math.abs(z) < 1 ? (1 - z * z) ** 2 : 0;
        }
      }
      coef.push(k);
    }
    spread = Math.max(spread, fillView(gains, view, block, columns, rows, H, coef));
  }
  spread = Math.exp(spread) - 1;
  return spread < minSpread ? null : { block, columns, gains, spread };
}

/**
 * Writes the view's blocks' gains from the surfaces `coef` (per channel; null: 1 everywhere; frame
 * height `H`) and
 * returns the spread there: half the range of a channel's log gain, the largest over channels.
 */
function fillView(
  gains: Float32Array,
  view: { x0: number; x1: number },
  block: number,
  columns: number,
  rows: number,
  H: number,
  coef: Float64Array[] | null,
): number {
  const phi = new Float64Array(TERMS);
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let by = 0; by < rows; by++) {
    for (let bx = Math.floor(view.x0 / block); bx * block < view.x1; bx++) {
      const x = Math.min(view.x1, (bx + 0.5) * block);
      const y = (by + 0.5) * block;
      const u = Math.max(-1, Math.min(1, (x - (view.x0 + view.x1) / 2) / ((view.x1 - view.x0) / 2)));
      const v = Math.max(-1, Math.min(1, (y - H / 2) / (H / 2)));
      basis(phi, u, v);
      for (let c = 0; c < 3; c++) {
        let l = 0;
        if (coef) for (let p = 0; p < TERMS; p++) l += coef[c][p] * phi[p];
        gains[3 * (by * columns + bx) + c] = Math.exp(l);
        lo[c] = Math.min(lo[c], l);
        hi[c] = Math.max(hi[c], l);
      }
    }
  }
  return coef ? Math.max((hi[0] - lo[0]) / 2, (hi[1] - lo[1]) / 2, (hi[2] - lo[2]) / 2) : 0;
}

/** Whether the squares of the wall's top two rows and of the floor agree within `minSpread` on every channel. */
function evenAtEdges(
  cy: number[],
  ratio: number[][],
  H: number,
  cell: number,
  groundV: number,
  minSpread: number,
): boolean {
  const top = (2 * (2 * cell)) / H - 1;
  const floor = (2 * groundV) / H - 1;
  const tol = Math.log(1 + minSpread);
  let seen = 0;
  for (let c = 0; c < 3; c++) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < cy.length; i++) {
      if (!(cy[i] < top || cy[i] > floor)) continue;
      lo = Math.min(lo, ratio[c][i]);
      hi = Math.max(hi, ratio[c][i]);
      seen++;
    }
    if (!(hi - lo < tol)) return false;
  }
  return seen > 0;
}

/** The median of a[0..n) (sorts a copy's prefix in place: a is scratch). */
function median(a: Float32Array, n: number): number {
  const s = a.subarray(0, n).sort();
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

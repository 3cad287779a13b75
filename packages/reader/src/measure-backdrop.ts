import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { floorRow } from '@mocap/media';

/** A line of the studio found in a clip frame (clip px, continuous: pixel i spans [i, i + 1)). */
export interface BackdropLine {
  /** Where it is: a column for the divider, a row for the ground edge. */
  at: number;
  /** Its contrast in grey levels: how much darker the divider is than the wall beside it, how much brighter the floor is than the wall. */
  contrast: number;
  /** The share (0-1) of sampled rows (divider) or columns (ground) that show it: near 1 for the studio, low for a line of one object. */
  share: number;
}

/** What {@link measureBackdrop} finds of the studio in one clip frame. */
export interface BackdropFeatures {
  width: number;
  height: number;
  /** The picture inside any black bars (letterbox, pillarbox), clip px. */
  content: { x0: number; x1: number; y0: number; y1: number };
  /** The divider between the views: the darkest full-height line, or null when none is dark enough to measure. */
  divider: BackdropLine | null;
  /** The ground row (the wall above, the brighter floor band below), or null when no row has a floor step. */
  ground: BackdropLine | null;
  /** Median grey level of the wall (above the ground row) and of the floor band. */
  wall: number;
  floor: number;
  /**
   * Where the layout's own edges are seen in the clip (clip px), when they are: a black bar, or a
   * fill of another colour around the studio (a zoomed-out or shifted framing). Undefined on a
   * side where the studio reaches the frame's edge (the layout's edge is there or beyond).
   */
  edges: { left?: number; right?: number; top?: number; bottom?: number };
}

/** A grey level a bar never exceeds (letterbox and pillarbox bars are black; video codecs keep them under 30). */
const BAR_GREY = 40;

/** Luma (BT.601) of every pixel. */
function toGrey(img: RgbImage): Float32Array {
  const { data } = img;
  const g = new Float32Array(img.width * img.height);
  for (let i = 0, p = 0; i < g.length; i++, p += 3) {
    g[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!;
  }
  return g;
}

let scratch = new Float32Array(0);

/** The k-th smallest of a[0..n) (quickselect on a scratch copy). */
function select(a: ArrayLike<number>, n: number, k: number): number {
  if (scratch.length < n) scratch = new Float32Array(n);
  const s = scratch;
  for (let i = 0; i < n; i++) s[i] = a[i]!;
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const pivot = s[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (s[i]! < pivot) i++;
      while (s[j]! > pivot) j--;
      if (i <= j) {
        const t = s[i]!;
        s[i] = s[j]!;
        s[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return s[k]!;
}

function median(a: Float32Array | number[], n = a.length): number {
  if (n === 0) return Number.NaN;
  const hi = select(a, n, n >> 1);
  return n % 2 ? hi : 0.5 * (hi + select(a, n, (n >> 1) - 1));
}

/** Per-row (axis 'row') or per-column medians of the grey image over a strided set of the other axis. */
function profile(
  g: Float32Array,
  w: number,
  axis: 'row' | 'col',
  from: number,
  to: number,
  across0: number,
  across1: number,
  stride: number,
): Float32Array {
  const out = new Float32Array(to - from);
  const buf = new Float32Array(Math.ceil((across1 - across0) / stride));
  for (let i = from; i < to; i++) {
    let n = 0;
    for (let j = across0; j < across1; j += stride) buf[n++] = axis === 'row' ? g[i * w + j]! : g[j * w + i]!;
    out[i - from] = median(buf, n);
  }
  return out;
}

/**
 * The edge of a step in a 1-D profile between level `a` (before) and `b` (after) over samples
 * [i0, i1): i0 plus the number of samples' worth still at `a` (exact for area-sampled edges,
 * unbiased under symmetric blur).
 */
function stepEdge(p: Float32Array, i0: number, i1: number, a: number, b: number): number {
  let s = 0;
  for (let i = i0; i < i1; i++) s += Math.min(1, Math.max(0, (b - p[i]!) / (b - a)));
  return i0 + s;
}

/** Indices of the `n` largest local maxima of `a` (largest within +-`r`), largest first. */
function peaks(a: Float32Array, r: number, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) {
    if (!(a[i]! > 0)) continue;
    let top = true;
    for (let j = Math.max(0, i - r); j <= Math.min(a.length - 1, i + r) && top; j++) {
      if (a[j]! > a[i]! || (a[j] === a[i] && j < i)) top = false;
    }
    if (top) out.push(i);
  }
  return out.sort((x, y) => a[y]! - a[x]!).slice(0, n);
}

/** How far past a bar's last dark px the picture must be {@link BAR_STEP} grey levels brighter than the bar. */
const BAR_STEP_PX = 4;
/** How much brighter than its bar a picture is just past it (a bar's edge is a step). */
const BAR_STEP = 30;

/** Whether the profile at `inside` is {@link BAR_STEP} levels brighter than at `bar` (the bar's last dark px). */
function stepsUp(p: Float32Array, bar: number, inside: number): boolean {
  return p[inside]! - p[bar]! >= BAR_STEP;
}

/** The black bars' inner edges (continuous px): where the profile leaves the bar level at each end. */
function barEdges(p: Float32Array): { lo: number; hi: number; barLo: boolean; barHi: boolean } {
  const n = p.length;
  let lo = 0;
  while (lo < n && p[lo]! < BAR_GREY) lo++;
  let hi = n;
  while (hi > lo && p[hi - 1]! < BAR_GREY) hi--;
  // A bar is a band of its own (at least 2 px), not a dark border line, and not most of the frame;
  // and the picture starts with a step, not a slope (a vignette darkens the frame's edges too).
  const barLo = lo >= 2 && lo < n / 3 && stepsUp(p, lo - 1, Math.min(n - 1, lo + BAR_STEP_PX));
  const barHi = n - hi >= 2 && n - hi < n / 3 && stepsUp(p, hi, Math.max(0, hi - 1 - BAR_STEP_PX));
  let edgeLo = 0;
  let edgeHi = n;
  if (barLo) {
    const i0 = lo - 2;
    const i1 = Math.min(n, lo + 3);
    edgeLo = stepEdge(p, i0, i1, median(p.subarray(0, lo)), median(p.subarray(i1, Math.min(n, i1 + 4))));
  }
  if (barHi) {
    const i0 = Math.max(0, hi - 3);
    const i1 = hi + 2;
    edgeHi = stepEdge(p, i0, i1, median(p.subarray(Math.max(0, i0 - 4), i0)), median(p.subarray(hi, n)));
  }
  return { lo: edgeLo, hi: edgeHi, barLo, barHi };
}

/**
 * Measures the studio in a clip frame: black bars, the divider's column, the ground row, the wall
 * and floor grey levels, and the layout's edges where a fill of another colour shows them. All
 * robust to the creature (medians over rows and columns) and to colour drift (steps are measured
 * against the frame's own wall and floor levels).
 *
 * ```ts
 * const f = measureBackdrop(frame, layout);
 * f.divider?.at; // clip column of the divider's centre
 * ```
 */
export function measureBackdrop(frame: RgbImage, layout: Layout): BackdropFeatures {
  const { width: w, height: h } = frame;
  const g = toGrey(frame);
  // Bars: row and column means of the whole frame are enough (bars are uniform).
  const rowMean = new Float32Array(h);
  const colMean = new Float32Array(w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = g[y * w + x]!;
      rowMean[y]! += v / w;
      colMean[x]! += v / h;
    }
  const rb = barEdges(rowMean);
  const cb = barEdges(colMean);
  const content = { x0: cb.lo, x1: cb.hi, y0: rb.lo, y1: rb.hi };
  const cx0 = Math.ceil(content.x0) + (cb.barLo ? 1 : 0);
  const cx1 = Math.floor(content.x1) - (cb.barHi ? 1 : 0);
  const cy0 = Math.ceil(content.y0) + (rb.barLo ? 1 : 0);
  const cy1 = Math.floor(content.y1) - (rb.barHi ? 1 : 0);
  const edges: BackdropFeatures['edges'] = {};
  if (cb.barLo) edges.left = content.x0;
  if (cb.barHi) edges.right = content.x1;
  if (rb.barLo) edges.top = content.y0;
  if (rb.barHi) edges.bottom = content.y1;
  const empty: BackdropFeatures = {
    width: w,
    height: h,
    content,
    divider: null,
    ground: null,
    wall: Number.NaN,
    floor: Number.NaN,
    edges,
  };
  if (cx1 - cx0 < 16 || cy1 - cy0 < 16) return empty;
  // Nominal clip px per layout px, for windows that scale with the frame.
  const px = Math.max((cx1 - cx0) / layout.WIDTH, (cy1 - cy0) / layout.HEIGHT);
  const stride = Math.max(1, Math.round(3 * px));

  // Ground: of the rows where the median across the frame steps up (wall to floor), the one whose
  // step shows across most of the width (a creature's edge steps too, over part of it).
  const rows = profile(g, w, 'row', cy0, cy1, cx0, cx1, stride);
  const k = Math.max(2, Math.round(4 * px));
  const m = Math.max(3, Math.round(10 * px));
  const steps = new Float32Array(rows.length);
  for (let i = k; i + k <= rows.length; i++) {
    steps[i] = median(rows.subarray(i, i + k)) - median(rows.subarray(i - k, i));
  }
  const groundAt = (gy: number): { line: BackdropLine; a: number; b: number } | null => {
    const a = median(rows.subarray(Math.max(0, gy - m - k), gy - k));
    const b = median(rows.subarray(gy + k, Math.min(rows.length, gy + k + m)));
    if (!(b - a > 1)) return null;
    const at = cy0 + stepEdge(rows, Math.max(0, gy - k), Math.min(rows.length, gy + k), a, b);
    // The step across the frame's width, not just the edge of one object.
    const yA = Math.max(cy0, Math.floor(at) - k - 1);
    const yB = Math.min(cy1 - 1, Math.ceil(at) + k);
    let n = 0;
    let yes = 0;
    for (let x = cx0; x < cx1; x += stride) {
      n++;
      if (g[yB * w + x]! - g[yA * w + x]! > 0.5 * (b - a)) yes++;
    }
    return { line: { at, contrast: b - a, share: yes / n }, a, b };
  };
  let best: ReturnType<typeof groundAt> = null;
  for (const i of peaks(steps, k, 6)) {
    const c = groundAt(i);
    if (c && (!best || c.line.share > best.line.share + 0.05)) best = c;
  }
  const ground = best?.line ?? null;
  const wall = best ? best.a : median(rows.subarray(0, Math.max(1, rows.length >> 1)));
  const floor = best ? best.b : Number.NaN;

  // Divider: of the columns darker than those beside them, the one dark over most of the height.
  const cols = profile(g, w, 'col', cx0, cx1, cy0, cy1, stride);
  const win = Math.max(6, Math.round(12 * px));
  const dark = new Float32Array(cols.length);
  for (let i = 0; i < cols.length; i++) {
    const lo = Math.max(0, i - win);
    const hi = Math.min(cols.length, i + win + 1);
    dark[i] = median(cols.subarray(lo, hi)) - cols[i]!;
  }
  const half = Math.max(3, Math.ceil((layout.DIVIDER_PX * px) / 2) + 2);
  const dividerAt = (dx: number): BackdropLine => {
    const depth = dark[dx]!;
    let sw = 0;
    let su = 0;
    for (let i = Math.max(0, dx - half); i <= Math.min(cols.length - 1, dx + half); i++) {
      const wt = Math.max(0, dark[i]! - 0.1 * depth);
      sw += wt;
      su += wt * (cx0 + i + 0.5);
    }
    // Rows where the line is darker than the wall on both sides of it.
    const x = cx0 + dx;
    const side = half + 1;
    const thr = Math.max(4, 0.3 * depth);
    let n = 0;
    let yes = 0;
    for (let y = cy0; y < cy1; y += stride) {
      const r = y * w;
      const line = Math.min(g[r + x]!, g[r + Math.max(cx0, x - 1)]!, g[r + Math.min(cx1 - 1, x + 1)]!);
      const left = g[r + Math.max(cx0, x - side)]!;
      const right = g[r + Math.min(cx1 - 1, x + side)]!;
      n++;
      if (line < Math.min(left, right) - thr) yes++;
    }
    return { at: su / sw, contrast: depth, share: yes / n };
  };
  let divider: BackdropLine | null = null;
  for (const i of peaks(dark, 2, 8)) {
    if (dark[i]! <= 2) continue;
    const c = dividerAt(i);
    if (!divider || c.share > divider.share + 0.05) divider = c;
  }

  // The layout's edges inside the picture: the studio (floor band, wall) gives way to a fill.
  if (ground && floor - wall > 1) {
    const thr = Math.max(6, 0.5 * (floor - wall));
    // A fill is even (a pad, a bar); the creature crossing the frame's edge, or a vignette's
    // darkening toward it, is not.
    const even = (run: Float32Array, fill: number, studio: number) =>
      run.every((x) => Math.abs(x - fill) <= Math.max(4, 0.25 * Math.abs(fill - studio)));
    // and it meets the studio in a step: most of the difference within 2k + 1 rows
    const stepsAt = (a: number, b: number, fill: number, studio: number) =>
      Math.abs(rows[Math.min(rows.length - 1, b)]! - rows[Math.max(0, a)]!) >= 0.7 * Math.abs(studio - fill);
    const gRow = Math.round(ground.at) - cy0;
    // Below the floor band, and above the wall.
    let i = rows.length;
    while (i > gRow + k + 2 && Math.abs(rows[i - 1]! - floor) > thr) i--;
    const bottomFill = median(rows.subarray(i, rows.length));
    if (
      rows.length - i >= 2 &&
      i < rows.length &&
      even(rows.subarray(Math.min(rows.length - 1, i + k)), bottomFill, floor) &&
      stepsAt(i - k - 1, i + k, bottomFill, floor)
    ) {
      const fill = median(rows.subarray(i, rows.length));
      const lo = Math.max(gRow + k, i - k);
      edges.bottom = cy0 + stepEdge(rows, lo, Math.min(rows.length, i + k), floor, fill);
    }
    let j = 0;
    while (j < gRow - k - 2 && Math.abs(rows[j]! - wall) > thr) j++;
    const topFill = median(rows.subarray(0, Math.max(1, j)));
    if (
      j >= 2 &&
      even(rows.subarray(0, Math.max(1, j - k)), topFill, wall) &&
      stepsAt(j - k - 1, j + k, topFill, wall)
    ) {
      const fill = median(rows.subarray(0, j));
      const hi = Math.min(gRow - k, j + k);
      edges.top = cy0 + stepEdge(rows, Math.max(0, j - k), hi, fill, wall);
    }
    // Left and right: columns of the floor band that are not floor.
    const fb0 = cy0 + gRow + k + 1;
    const fb1 = Math.min(cy1, edges.bottom !== undefined ? Math.floor(edges.bottom) - 1 : cy1);
    if (fb1 - fb0 >= 3) {
      const band = profile(g, w, 'col', cx0, cx1, fb0, fb1, 1);
      let l = 0;
      while (l < band.length - 1 && Math.abs(band[l]! - floor) > thr) l++;
      if (l >= 2) {
        const fill = median(band.subarray(0, l));
        const run = band.subarray(0, Math.max(1, l - k));
        if (even(run, fill, floor)) {
          edges.left = cx0 + stepEdge(band, Math.max(0, l - k), Math.min(band.length, l + k), fill, floor);
        }
      }
      let r = band.length;
      while (r > 1 && Math.abs(band[r - 1]! - floor) > thr) r--;
      if (band.length - r >= 2) {
        const fill = median(band.subarray(r, band.length));
        const run = band.subarray(Math.min(band.length - 1, r + k), band.length);
        if (even(run, fill, floor)) {
          edges.right = cx0 + stepEdge(band, Math.max(0, r - k), Math.min(band.length, r + k), floor, fill);
        }
      }
    }
  }
  return { ...empty, divider, ground, wall, floor, edges };
}

/** The layout's divider centre and ground row (layout px), where {@link measureBackdrop}'s lines map to. */
export function layoutLines(layout: Layout): { divider: number; ground: number } {
  return { divider: layout.W_FRONT - layout.DIVIDER_PX / 2, ground: floorRow(layout) };
}

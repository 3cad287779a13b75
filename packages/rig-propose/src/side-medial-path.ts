import type { MeshFeatures } from './mesh-features.js';

/** A path through the middle of the side silhouette: points (y, z), the silhouette's half-thickness there, arc length. */
export interface MedialPath {
  y: number[];
  z: number[];
  radius: number[];
  /** Arc length from the first point, metres. */
  s: number[];
  /**
   * The extremity of the end's volume: the silhouette cell furthest along {@link MedialPath.dir}
   * among those within a quarter of the path's length (through the silhouette) of its end, (y, z).
   */
  tip: [number, number];
  /** The end's direction: unit (y, z) from the path's middle to its end. */
  dir: [number, number];
}

/** The end region's reach, as a share of the path's length, and where the end's direction starts. */
const TIP_REGION = 0.25;
const DIR_FROM = 0.5;

/**
 * The filled side silhouette of the body's central slab (y columns x z rows): the projected
 * surface cells closed by one cell, then everything the outside cannot reach.
 */
function filledSide(f: MeshFeatures): Uint8Array {
  const { nx, ny, nz, cells, origin, size } = f.grid;
  const i0 = Math.max(0, Math.floor((f.centreX - f.halfTrack / 2 - origin[0]) / size));
  const i1 = Math.min(nx - 1, Math.floor((f.centreX + f.halfTrack / 2 - origin[0]) / size));
  const w = ny + 2;
  const h = nz + 2;
  const wall = new Uint8Array(w * h);
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      let any = 0;
      for (let i = i0; i <= i1 && !any; i++) any = cells[i + nx * (j + ny * k)] as number;
      if (!any) continue;
      for (let dk = -1; dk <= 1; dk++)
        for (let dj = -1; dj <= 1; dj++) wall[j + 1 + dj + w * (k + 1 + dk)] = 1;
    }
  }
  const outside = new Uint8Array(w * h);
  const stack = [0];
  outside[0] = 1;
  while (stack.length) {
    const c = stack.pop() as number;
    const x = c % w;
    const y = (c - x) / w;
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const xx = x + dx;
      const yy = y + dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
      const n = xx + w * yy;
      if (!outside[n] && !wall[n]) {
        outside[n] = 1;
        stack.push(n);
      }
    }
  }
  const inside = new Uint8Array(ny * nz);
  for (let k = 0; k < nz; k++)
    for (let j = 0; j < ny; j++) inside[j + ny * k] = outside[j + 1 + w * (k + 1)] ? 0 : 1;
  return inside;
}

/** Chamfer (3-4) distance to the nearest outside cell, in cells. */
function distance(inside: Uint8Array, ny: number, nz: number): Float64Array {
  const d = new Float64Array(ny * nz);
  for (let c = 0; c < d.length; c++) d[c] = inside[c] ? 1e9 : 0;
  const pass = (order: 1 | -1) => {
    const offs =
      order === 1
        ? [
            [-1, 0, 3],
            [0, -1, 3],
            [-1, -1, 4],
            [1, -1, 4],
          ]
        : [
            [1, 0, 3],
            [0, 1, 3],
            [1, 1, 4],
            [-1, 1, 4],
          ];
    for (let n = 0; n < d.length; n++) {
      const c = order === 1 ? n : d.length - 1 - n;
      const j = c % ny;
      const k = (c - j) / ny;
      for (const [dj, dk, w] of offs as [number, number, number][]) {
        const jj = j + dj;
        const kk = k + dk;
        const v = jj < 0 || kk < 0 || jj >= ny || kk >= nz ? 0 : (d[jj + ny * kk] as number);
        if (v + w < (d[c] as number)) d[c] = v + w;
      }
    }
  };
  pass(1);
  pass(-1);
  for (let c = 0; c < d.length; c++) d[c] = (d[c] as number) / 3;
  return d;
}

/**
 * The medial path of the side silhouette from the point (y, z) to the body's end (the inside
 * cell furthest from it through the silhouette, in front of it for `'front'` (the nose), behind
 * it for `'back'` (the tail tip, hanging or not)): the cheapest 8-neighbour path where a
 * step costs more the nearer it runs to the outline, so it keeps to the middle of a rising neck
 * or a hanging tail where a column-wise middle would cut across them.
 *
 * ```ts
 * const neck = sideMedialPath(features, withers[1], withers[2], 'front');
 * ```
 */
export function sideMedialPath(f: MeshFeatures, y: number, z: number, end: 'front' | 'back'): MedialPath {
  const { ny, nz, origin, size } = f.grid;
  const inside = filledSide(f);
  const dt = distance(inside, ny, nz);
  const cellOf = (yy: number, zz: number) => {
    const j = Math.max(0, Math.min(ny - 1, Math.floor((yy - origin[1]) / size)));
    const k = Math.max(0, Math.min(nz - 1, Math.floor((zz - origin[2]) / size)));
    return j + ny * k;
  };
  let start = cellOf(y, z);
  if (!inside[start]) {
    let best = Infinity;
    for (let c = 0; c < inside.length; c++) {
      if (!inside[c]) continue;
      const d = Math.hypot((c % ny) - (start % ny), Math.floor(c / ny) - Math.floor(start / ny));
      if (d < best) {
        best = d;
        start = c;
      }
    }
  }
  // The end: the cell furthest from the start through the silhouette, among those beyond it.
  const reach = geodesic(inside, ny, nz, start);
  let goal = start;
  const j0 = start % ny;
  const beyond = (c: number) =>
    (end === 'front' ? c % ny < j0 : c % ny > j0) && Number.isFinite(reach[c] as number);
  for (let c = 0; c < reach.length; c++) {
    if (beyond(c) && (reach[c] as number) > (reach[goal] as number)) goal = c;
  }
  // The furthest cell lies on the outline: end at the deepest cell within three cells of it.
  const far = reach[goal] as number;
  for (let c = 0; c < reach.length; c++) {
    const r = reach[c] as number;
    if (beyond(c) && r <= far && r >= far - 3 && (dt[c] as number) > (dt[goal] as number)) goal = c;
  }
  const cost = new Float64Array(ny * nz).fill(Infinity);
  const prev = new Int32Array(ny * nz).fill(-1);
  cost[start] = 0;
  const heap = new MinHeap();
  heap.push(0, start);
  while (heap.size) {
    const [cst, c] = heap.pop();
    if (cst > (cost[c] as number)) continue;
    if (c === goal) break;
    const j = c % ny;
    const k = (c - j) / ny;
    for (let dk = -1; dk <= 1; dk++) {
      for (let dj = -1; dj <= 1; dj++) {
        if (!dj && !dk) continue;
        const jj = j + dj;
        const kk = k + dk;
        if (jj < 0 || kk < 0 || jj >= ny || kk >= nz) continue;
        const n = jj + ny * kk;
        if (!inside[n]) continue;
        const r = dt[n] as number;
        const nc = cst + Math.hypot(dj, dk) / (r * r);
        if (nc < (cost[n] as number)) {
          cost[n] = nc;
          prev[n] = c;
          heap.push(nc, n);
        }
      }
    }
  }
  const cellsOnPath: number[] = [];
  for (let c = goal; c >= 0; c = prev[c] as number) {
    cellsOnPath.unshift(c);
    if (c === start) break;
  }
  const raw = cellsOnPath.map((c) => [
    origin[1] + ((c % ny) + 0.5) * size,
    origin[2] + (Math.floor(c / ny) + 0.5) * size,
    (dt[c] as number) * size,
  ]);
  // Smoothed over five cells: the 8-neighbour staircase is no bend.
  const smooth = (d: number) =>
    raw.map((_, i) => {
      // A window that shrinks at the ends keeps the path's start and end where they are.
      const m = Math.min(2, i, raw.length - 1 - i);
      let sum = 0;
      for (let o = -m; o <= m; o++) sum += (raw[i + o] as number[])[d] as number;
      return sum / (2 * m + 1);
    });
  const ys = smooth(0);
  const zs = smooth(1);
  const s = [0];
  for (let i = 1; i < ys.length; i++)
    s.push(
      (s[i - 1] as number) +
        Math.hypot((ys[i] as number) - (ys[i - 1] as number), (zs[i] as number) - (zs[i - 1] as number)),
    );
  const total = s[s.length - 1] as number;
  // The end's direction: from the path's middle to its end (a smoothed end's last steps can turn along a blunt end).
  let im = 0;
  while (im < s.length - 1 && (s[im] as number) < DIR_FROM * total) im++;
  const dy = (ys[ys.length - 1] as number) - (ys[im] as number);
  const dz = (zs[zs.length - 1] as number) - (zs[im] as number);
  const dl = Math.hypot(dy, dz) || 1;
  const dir: [number, number] = [dy / dl, dz / dl];
  const fromEnd = geodesic(inside, ny, nz, goal);
  let tipCell = goal;
  let best = -Infinity;
  for (let c = 0; c < fromEnd.length; c++) {
    if (!((fromEnd[c] as number) * size <= TIP_REGION * total)) continue;
    const v = ((c % ny) + 0.5) * dir[0] + (Math.floor(c / ny) + 0.5) * dir[1];
    if (v > best) {
      best = v;
      tipCell = c;
    }
  }
  const tip: [number, number] = [
    origin[1] + ((tipCell % ny) + 0.5) * size,
    origin[2] + (Math.floor(tipCell / ny) + 0.5) * size,
  ];
  return { y: ys, z: zs, radius: raw.map((r) => r[2] as number), s, tip, dir };
}

/** Distance through the silhouette (8-neighbour steps) from one cell to every inside cell, in cells. */
function geodesic(inside: Uint8Array, ny: number, nz: number, from: number): Float64Array {
  const reach = new Float64Array(ny * nz).fill(Infinity);
  reach[from] = 0;
  const heap = new MinHeap();
  heap.push(0, from);
  while (heap.size) {
    const [d, c] = heap.pop();
    if (d > (reach[c] as number)) continue;
    const j = c % ny;
    const k = (c - j) / ny;
    for (let dk = -1; dk <= 1; dk++) {
      for (let dj = -1; dj <= 1; dj++) {
        const jj = j + dj;
        const kk = k + dk;
        if ((!dj && !dk) || jj < 0 || kk < 0 || jj >= ny || kk >= nz) continue;
        const n = jj + ny * kk;
        const nd = d + Math.hypot(dj, dk);
        if (inside[n] && nd < (reach[n] as number)) {
          reach[n] = nd;
          heap.push(nd, n);
        }
      }
    }
  }
  return reach;
}

/** A binary min-heap of (cost, cell). */
class MinHeap {
  private readonly keys: number[] = [];
  private readonly vals: number[] = [];
  get size(): number {
    return this.keys.length;
  }
  push(key: number, val: number): void {
    const { keys, vals } = this;
    let i = keys.length;
    keys.push(key);
    vals.push(val);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((keys[p] as number) <= key) break;
      keys[i] = keys[p] as number;
      vals[i] = vals[p] as number;
      i = p;
    }
    keys[i] = key;
    vals[i] = val;
  }
  pop(): [number, number] {
    const { keys, vals } = this;
    const top: [number, number] = [keys[0] as number, vals[0] as number];
    const k = keys.pop() as number;
    const v = vals.pop() as number;
    if (keys.length) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= keys.length) break;
        const r = l + 1;
        const m = r < keys.length && (keys[r] as number) < (keys[l] as number) ? r : l;
        if ((keys[m] as number) >= k) break;
        keys[i] = keys[m] as number;
        vals[i] = vals[m] as number;
        i = m;
      }
      keys[i] = k;
      vals[i] = v;
    }
    return top;
  }
}

/**
 * Where along the path (0..1 of its length) it is highest: the crown of a neck that rises and
 * then turns forward into the head. Head and neck joints keep their place before or after it.
 */
export function crownOf(m: MedialPath): number {
  let best = 0;
  for (let i = 1; i < m.z.length; i++) if ((m.z[i] as number) > (m.z[best] as number)) best = i;
  const total = m.s[m.s.length - 1] as number;
  return total > 0 ? (m.s[best] as number) / total : 0;
}

/** Maps a fraction of one path to another through their crowns (piecewise linear, 0 and 1 fixed). */
export function throughCrown(frac: number, from: number, to: number): number {
  if (from <= 0 || from >= 1) return frac;
  return frac <= from ? (frac / from) * to : to + ((frac - from) / (1 - from)) * (1 - to);
}

/** The point of `m` nearest to (y, z): its fraction of the path's length and its offset across the path in radii. */
export function locateOnPath(m: MedialPath, y: number, z: number): { frac: number; offset: number } {
  let best = 0;
  let bd = Infinity;
  for (let i = 0; i < m.y.length; i++) {
    const d = Math.hypot((m.y[i] as number) - y, (m.z[i] as number) - z);
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  const [ny, nz] = normalAt(m, best);
  const total = m.s[m.s.length - 1] as number;
  return {
    frac: total > 0 ? (m.s[best] as number) / total : 0,
    offset:
      ((y - (m.y[best] as number)) * ny + (z - (m.z[best] as number)) * nz) /
      Math.max(m.radius[best] as number, 1e-9),
  };
}

/** The point at `frac` of the path's length, moved `offset` radii across it: [y, z]. */
export function pointOnPath(m: MedialPath, frac: number, offset: number): [number, number] {
  const total = m.s[m.s.length - 1] as number;
  const target = Math.max(0, Math.min(1, frac)) * total;
  let i = 0;
  while (i < m.s.length - 1 && (m.s[i + 1] as number) <= target) i++;
  const [ny, nz] = normalAt(m, i);
  const r = m.radius[i] as number;
  return [(m.y[i] as number) + offset * r * ny, (m.z[i] as number) + offset * r * nz];
}

/** The unit normal of the path at point i (its direction turned +90 degrees in the y-z plane). */
function normalAt(m: MedialPath, i: number): [number, number] {
  const a = Math.max(0, i - 3);
  const b = Math.min(m.y.length - 1, i + 3);
  const dy = (m.y[b] as number) - (m.y[a] as number);
  const dz = (m.z[b] as number) - (m.z[a] as number);
  const l = Math.hypot(dy, dz) || 1;
  return [-dz / l, dy / l];
}

import type { VoxelGrid } from './voxel-grid.js';

/** The four legs in template order. */
export const LEGS = ['front.L', 'front.R', 'hind.L', 'hind.R'] as const;
/** One of {@link LEGS}. */
export type LegName = (typeof LEGS)[number];

/** One leg followed up from the ground: its cross-section's centre per height until it joins the body. */
export interface LegTrack {
  leg: LegName;
  /** Centre (x, y) of the leg's cross-section at each level from the ground, cell centres. */
  x: number[];
  y: number[];
  /** Height of each level, metres. */
  z: number[];
  /** Cells in each level's cross-section. */
  area: number[];
  /** Height where the leg joins the body (its cross-section jumps or meets another leg), metres. */
  top: number;
  /** Front-most y of the leg's ground footprint (toes). */
  toeY: number;
  /** Ground cells of the leg. */
  groundCells: number;
}

/** Calls `visit` with each 8-neighbour of cell `c` inside the nx x ny grid. */
function neighbours8(c: number, nx: number, ny: number, visit: (n: number) => void): void {
  const ci = c % nx;
  const cj = (c - ci) / nx;
  for (let j = Math.max(0, cj - 1); j <= Math.min(ny - 1, cj + 1); j++) {
    for (let i = Math.max(0, ci - 1); i <= Math.min(nx - 1, ci + 1); i++) visit(i + nx * j);
  }
}

/** 2-D connected components (8-neighbour) of the cells in `mask` (nx x ny); returns labels, 0 = none. */
function label(mask: Uint8Array, nx: number, ny: number): { labels: Int32Array; count: number } {
  const labels = new Int32Array(nx * ny);
  let count = 0;
  const stack: number[] = [];
  const take = (n: number) => {
    if (mask[n] && !labels[n]) {
      labels[n] = count;
      stack.push(n);
    }
  };
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || labels[s]) continue;
    labels[s] = ++count;
    stack.push(s);
    while (stack.length) neighbours8(stack.pop() as number, nx, ny, take);
  }
  return { labels, count };
}

/** The cells of level k (one layer), as an nx x ny mask. */
function level(g: VoxelGrid, k: number): Uint8Array {
  const n = g.nx * g.ny;
  return g.cells.subarray(k * n, (k + 1) * n);
}

/**
 * Finds the legs standing on the ground and follows each up to the body. The ground footprint
 * (cells up to `groundM` high) splits into connected components; per side (x sign) the front-most
 * and hind-most are the front and hind legs. Each leg then climbs level by level, keeping the
 * cells connected to the level below, until its cross-section grows past `jump` times its median
 * or touches another leg: that height is where it joins the body.
 * Throws a plain Error (the caller names the file) when a side has fewer than two footprints.
 *
 * ```ts
 * const legs = legTracks(voxelizeSurface(mesh, 0.005), 0.01);
 * ```
 */
export function legTracks(g: VoxelGrid, groundM: number, jump = 2.5): LegTrack[] {
  const n = g.nx * g.ny;
  const kg = Math.max(0, Math.min(g.nz - 1, Math.floor(groundM / g.size)));
  const foot = new Uint8Array(n);
  for (let k = 0; k <= kg; k++) {
    const l = level(g, k);
    for (let c = 0; c < n; c++) foot[c] = (foot[c] as number) | (l[c] as number);
  }
  const { labels, count } = label(foot, g.nx, g.ny);
  const comps = Array.from({ length: count }, () => ({ sx: 0, sy: 0, cells: 0, minJ: Infinity }));
  for (let c = 0; c < n; c++) {
    const l = labels[c] as number;
    if (!l) continue;
    const i = c % g.nx;
    const j = (c - i) / g.nx;
    const comp = comps[l - 1] as (typeof comps)[number];
    comp.sx += i;
    comp.sy += j;
    comp.cells++;
    comp.minJ = Math.min(comp.minJ, j);
  }
  const x0 = g.origin[0];
  const cx = (i: number) => x0 + (i + 0.5) * g.size;
  const cy = (j: number) => g.origin[1] + (j + 0.5) * g.size;
  const big = Math.max(...comps.map((c) => c.cells));
  // Specks of a few cells (a dangling tail tip, noise) are no feet.
  const feet = comps
    .map((c, idx) => ({ ...c, id: idx + 1, x: cx(c.sx / c.cells), y: cy(c.sy / c.cells) }))
    .filter((c) => c.cells >= 0.15 * big);
  const tracks: LegTrack[] = [];
  const owner = new Int32Array(n);
  const seeds: { leg: LegName; id: number }[] = [];
  for (const side of ['L', 'R'] as const) {
    const mine = feet.filter((f) => (side === 'L' ? f.x > 0 : f.x <= 0)).sort((a, b) => a.y - b.y);
    if (mine.length < 2) {
      throw new Error(
        `found ${mine.length} foot on the ground on the ${side === 'L' ? 'left (+X)' : 'right (-X)'} side, expected a front and a hind leg reaching the ground`,
      );
    }
    seeds.push({ leg: `front.${side}`, id: (mine[0] as (typeof mine)[number]).id });
    seeds.push({ leg: `hind.${side}`, id: (mine[mine.length - 1] as (typeof mine)[number]).id });
  }
  seeds.sort((a, b) => LEGS.indexOf(a.leg) - LEGS.indexOf(b.leg));
  for (const s of seeds) {
    const foot0 = feet.find((f) => f.id === s.id) as (typeof feet)[number];
    let region: Uint8Array = new Uint8Array(n);
    for (let c = 0; c < n; c++) if (labels[c] === s.id) region[c] = 1;
    const t: LegTrack = {
      leg: s.leg,
      x: [foot0.x],
      y: [foot0.y],
      z: [(kg + 1) * g.size * 0.5],
      area: [foot0.cells],
      top: (kg + 1) * g.size,
      toeY: cy(foot0.minJ),
      groundCells: foot0.cells,
    };
    for (let k = kg + 1; k < g.nz; k++) {
      const next: Uint8Array = grow(level(g, k), region, g.nx, g.ny);
      let a = 0;
      let sx = 0;
      let sy = 0;
      let shared = false;
      for (let c = 0; c < n; c++) {
        if (!next[c]) continue;
        a++;
        sx += c % g.nx;
        sy += Math.floor(c / g.nx);
        if (owner[c] && owner[c] !== s.id) shared = true;
      }
      const sorted = [...t.area].sort((p, q) => p - q);
      const median = sorted[Math.floor(sorted.length / 2)] as number;
      if (a === 0 || shared || (t.area.length >= 3 && a > jump * median)) {
        t.top = k * g.size;
        break;
      }
      for (let c = 0; c < n; c++) if (next[c]) owner[c] = s.id;
      t.x.push(cx(sx / a));
      t.y.push(cy(sy / a));
      t.z.push(g.origin[2] + (k + 0.5) * g.size);
      t.area.push(a);
      region = next;
      t.top = (k + 1) * g.size;
    }
    tracks.push(t);
  }
  return tracks;
}

/** The cells of `layer` connected (8-neighbour, within one cell) to `region`. */
function grow(layer: Uint8Array, region: Uint8Array, nx: number, ny: number): Uint8Array {
  const out = new Uint8Array(nx * ny);
  const stack: number[] = [];
  const take = (m: number) => {
    if (layer[m] && !out[m]) {
      out[m] = 1;
      stack.push(m);
    }
  };
  for (let c = 0; c < region.length; c++) if (region[c]) neighbours8(c, nx, ny, take);
  while (stack.length) neighbours8(stack.pop() as number, nx, ny, take);
  return out;
}

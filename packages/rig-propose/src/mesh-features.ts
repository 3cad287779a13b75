import { type LegTrack, legTracks } from './leg-tracks.js';
import type { PreppedMesh } from './read-prepped-mesh.js';
import { type VoxelGrid, voxelizeSurface } from './voxel-grid.js';

/** What the proposal measures on a prepped mesh (metres, prepped frame). */
export interface MeshFeatures {
  grid: VoxelGrid;
  /** Extent of the mesh along y (its length) and its height. */
  length: number;
  height: number;
  /** The body's mid-plane x (between the left and right feet). */
  centreX: number;
  /** Half the distance between the left and right feet. */
  halfTrack: number;
  legs: LegTrack[];
  /** Side profile of the body's central slab, per y column of the grid: lowest and highest surface z (NaN where empty). */
  bottom: Float64Array;
  top: Float64Array;
  /** Front-most (nose) and hind-most (tail tip) y of the central slab, with the mean z there. */
  front: [number, number];
  back: [number, number];
}

/** Grid cells along the mesh's length: fine enough for a 1 m fox's 2 cm legs (6.7 mm cells). */
export const CELLS_PER_LENGTH = 150;

/**
 * Measures a prepped mesh: its surface voxels, the four legs from the ground up
 * ({@link legTracks}), the body's mid-plane and the side profile of a slab around it (half as
 * wide as the feet are apart, so legs and wings stay out of it), and its front and back ends.
 *
 * ```ts
 * const f = meshFeatures(await readPreppedMesh(glb));
 * f.legs[0].top; // where the left front leg meets the body, metres
 * ```
 */
export function meshFeatures(mesh: PreppedMesh): MeshFeatures {
  const p = mesh.positions;
  let ylo = Infinity;
  let yhi = -Infinity;
  let zhi = -Infinity;
  for (let i = 0; i < p.length; i += 3) {
    ylo = Math.min(ylo, p[i + 1] as number);
    yhi = Math.max(yhi, p[i + 1] as number);
    zhi = Math.max(zhi, p[i + 2] as number);
  }
  const length = yhi - ylo;
  const grid = voxelizeSurface(mesh, length / CELLS_PER_LENGTH);
  const legs = legTracks(grid, Math.max(grid.size, 0.015 * zhi));
  const xs = legs.map((l) => l.x[0] as number);
  const centreX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const halfTrack = xs.reduce((a, x) => a + Math.abs(x - centreX), 0) / xs.length;
  const { nx, ny, nz, size, origin } = grid;
  const bottom = new Float64Array(ny).fill(Number.NaN);
  const top = new Float64Array(ny).fill(Number.NaN);
  const i0 = Math.max(0, Math.floor((centreX - halfTrack / 2 - origin[0]) / size));
  const i1 = Math.min(nx - 1, Math.floor((centreX + halfTrack / 2 - origin[0]) / size));
  for (let j = 0; j < ny; j++) {
    for (let k = 0; k < nz; k++) {
      for (let i = i0; i <= i1; i++) {
        if (!grid.cells[i + nx * (j + ny * k)]) continue;
        const z = origin[2] + (k + 0.5) * size;
        if (!(z >= (bottom[j] as number))) bottom[j] = z;
        if (!(z <= (top[j] as number))) top[j] = z;
      }
    }
  }
  const end = (j: number): [number, number] => [
    origin[1] + (j + 0.5) * size,
    ((bottom[j] as number) + (top[j] as number)) / 2,
  ];
  let jf = 0;
  while (jf < ny - 1 && Number.isNaN(top[jf] as number)) jf++;
  let jb = ny - 1;
  while (jb > 0 && Number.isNaN(top[jb] as number)) jb--;
  return {
    grid,
    length,
    height: zhi,
    centreX,
    halfTrack,
    legs,
    bottom,
    top,
    front: end(jf),
    back: end(jb),
  };
}

/** The profile value at world y (linear between columns; nearest non-empty column when empty). */
export function profileAt(f: MeshFeatures, which: 'top' | 'bottom', y: number): number {
  const a = which === 'top' ? f.top : f.bottom;
  const t = (y - f.grid.origin[1]) / f.grid.size - 0.5;
  const j = Math.max(0, Math.min(a.length - 1, Math.round(t)));
  for (let d = 0; d < a.length; d++) {
    for (const c of [j - d, j + d]) {
      if (c >= 0 && c < a.length && !Number.isNaN(a[c] as number)) return a[c] as number;
    }
  }
  return Number.NaN;
}

import type { PreppedMesh } from './read-prepped-mesh.js';

/** A boolean grid over the mesh's bounding box: cell (i, j, k) covers x, y, z from `origin + (i, j, k) * size`. */
export interface VoxelGrid {
  nx: number;
  ny: number;
  nz: number;
  /** Edge of one cell, metres. */
  size: number;
  /** World position of the grid's corner (cell 0, 0, 0's low corner). */
  origin: [number, number, number];
  /** 1 where the mesh surface passes, index `i + nx * (j + ny * k)`. */
  cells: Uint8Array;
}

/**
 * Marks every cell the mesh's surface passes through (each triangle sampled at a third of a
 * cell), so open or non-manifold meshes from generators voxelise as well as closed ones.
 *
 * ```ts
 * const grid = voxelizeSurface(mesh, 0.005);
 * ```
 */
export function voxelizeSurface(mesh: PreppedMesh, size: number): VoxelGrid {
  if (!(size > 0)) throw new TypeError(`voxelizeSurface: Expected size > 0, got ${size}.`);
  const p = mesh.positions;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k] as number, p[i + k] as number);
      hi[k] = Math.max(hi[k] as number, p[i + k] as number);
    }
  }
  const origin: [number, number, number] = [
    (lo[0] as number) - size,
    (lo[1] as number) - size,
    lo[2] as number,
  ];
  const nx = Math.ceil(((hi[0] as number) - origin[0]) / size) + 2;
  const ny = Math.ceil(((hi[1] as number) - origin[1]) / size) + 2;
  const nz = Math.ceil(((hi[2] as number) - origin[2]) / size) + 1;
  const cells = new Uint8Array(nx * ny * nz);
  const t = mesh.triangles;
  const step = size / 3;
  for (let f = 0; f < t.length; f += 3) {
    const a = (t[f] as number) * 3;
    const b = (t[f + 1] as number) * 3;
    const c = (t[f + 2] as number) * 3;
    const lab = Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!);
    const lac = Math.hypot(p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!);
    const lbc = Math.hypot(p[c]! - p[b]!, p[c + 1]! - p[b + 1]!, p[c + 2]! - p[b + 2]!);
    const n = Math.max(1, Math.ceil(Math.max(lab, lac, lbc) / step));
    for (let u = 0; u <= n; u++) {
      for (let v = 0; v <= n - u; v++) {
        const s = u / n;
        const r = v / n;
        const q = 1 - s - r;
        const i = Math.floor((q * p[a]! + s * p[b]! + r * p[c]! - origin[0]) / size);
        const j = Math.floor((q * p[a + 1]! + s * p[b + 1]! + r * p[c + 1]! - origin[1]) / size);
        const k = Math.min(
          nz - 1,
          Math.floor((q * p[a + 2]! + s * p[b + 2]! + r * p[c + 2]! - origin[2]) / size),
        );
        cells[i + nx * (j + ny * k)] = 1;
      }
    }
  }
  return { nx, ny, nz, size, origin, cells };
}

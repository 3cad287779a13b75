import type { RasterTarget } from './rasterize-views.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/** Per triangle, the joint that carries most of its three vertices' skin weight. */
export function dominantJoints(mesh: SkinnedMesh): Int32Array {
  const f = mesh.indices.length / 3;
  const out = new Int32Array(f);
  const acc = new Map<number, number>();
  for (let t = 0; t < f; t++) {
    acc.clear();
    for (let c = 0; c < 3; c++) {
      const v = mesh.indices[3 * t + c];
      for (let q = 0; q < 4; q++) {
        const w = mesh.weights[4 * v + q];
        if (w > 0) acc.set(mesh.joints[4 * v + q], (acc.get(mesh.joints[4 * v + q]) ?? 0) + w);
      }
    }
    let best = 0;
    let bestW = -1;
    for (const [j, w] of acc) {
      if (w > bestW) {
        best = j;
        bestW = w;
      }
    }
    out[t] = best;
  }
  return out;
}

/** Per joint and view (index `2 j + view`): raster pixels whose face the joint dominates. */
export function jointVisibility(out: Float64Array, r: RasterTarget, faceJoint: Int32Array): void {
  out.fill(0);
  // the last full rasterisation drew only inside this box and cleared everything outside it
  const [x0, y0, x1, y1] = r.labelled;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const f = r.face[y * r.width + x];
      if (f >= 0) out[2 * faceJoint[f] + (x < r.sideStart ? 0 : 1)]++;
    }
  }
}

/**
 * Per joint and view (index `2 j + view`): half the summed projected area (layout px) of the
 * faces the joint dominates, about what the joint's part covers when nothing hides it.
 * `proj` holds the vertices in layout px (`projectVertices`: front column, side column, row).
 */
export function jointProjectedArea(
  out: Float64Array,
  proj: Float64Array,
  indices: Uint32Array,
  faceJoint: Int32Array,
): void {
  out.fill(0);
  for (let t = 0; t < faceJoint.length; t++) {
    const a = 3 * indices[3 * t]!;
    const b = 3 * indices[3 * t + 1]!;
    const c = 3 * indices[3 * t + 2]!;
    const dv1 = proj[b + 2]! - proj[a + 2]!;
    const dv2 = proj[c + 2]! - proj[a + 2]!;
    for (let view = 0; view < 2; view++) {
      const du1 = proj[b + view]! - proj[a + view]!;
      const du2 = proj[c + view]! - proj[a + view]!;
      out[2 * faceJoint[t]! + view]! += 0.25 * Math.abs(du1 * dv2 - du2 * dv1);
    }
  }
}

/**
 * Points on a mesh's surface the refinement projects: each a fixed barycentric combination of
 * one triangle's vertices (so it follows the skinning exactly), with the triangle's label.
 */
export interface SurfaceSamples {
  count: number;
  /** Vertex indices, S x 3. */
  tri: Uint32Array;
  /** Barycentric weights, S x 3. */
  bary: Float64Array;
  /** Label per sample (the triangle's). */
  label: Uint8Array;
}

const PATTERNS: Record<number, number[][]> = {
  1: [[1 / 3, 1 / 3, 1 / 3]],
  4: [
    [1 / 3, 1 / 3, 1 / 3],
    [2 / 3, 1 / 6, 1 / 6],
    [1 / 6, 2 / 3, 1 / 6],
    [1 / 6, 1 / 6, 2 / 3],
  ],
  7: [
    [1 / 3, 1 / 3, 1 / 3],
    [2 / 3, 1 / 6, 1 / 6],
    [1 / 6, 2 / 3, 1 / 6],
    [1 / 6, 1 / 6, 2 / 3],
    [0.5, 0.5, 0],
    [0, 0.5, 0.5],
    [0.5, 0, 0.5],
  ],
};

/**
 * Samples every triangle at `perFace` (1, 4 or 7) fixed barycentric points.
 *
 * ```ts
 * const samples = surfaceSamples(mesh.indices, faceLabels(mesh.indices, vlabels), 4);
 * ```
 */
export function surfaceSamples(
  indices: Uint32Array,
  labels: Uint8Array,
  perFace: 1 | 4 | 7 = 4,
): SurfaceSamples {
  const pattern = PATTERNS[perFace];
  if (!pattern) throw new TypeError(`surfaceSamples: expected perFace 1, 4 or 7, got ${perFace}.`);
  const f = indices.length / 3;
  const count = f * pattern.length;
  const tri = new Uint32Array(count * 3);
  const bary = new Float64Array(count * 3);
  const label = new Uint8Array(count);
  let s = 0;
  for (let t = 0; t < f; t++) {
    for (const b of pattern) {
      for (let k = 0; k < 3; k++) {
        tri[3 * s + k] = indices[3 * t + k];
        bary[3 * s + k] = b[k];
      }
      label[s] = labels[t];
      s++;
    }
  }
  return { count, tri, bary, label };
}

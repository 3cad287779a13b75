import type { FitState } from './fit-state.js';

/**
 * Fills `cx`, `cy`, `cz` with the columns of keypoint j's Jacobian at frame f: root
 * translation (unit), root rotation, chain bones (cross products of the rotation axes with
 * the lever arm, read in place from st.axes); returns the column count.
 */
export function keypointColumns(
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
  chains: readonly Int32Array[],
  st: FitState,
  f: number,
  j: number,
): number {
  const { k, b } = st;
  const xj = (f * k + j) * 3;
  const pb = f * b * 3;
  cx[0] = 1;
  cy[0] = 0;
  cz[0] = 0;
  cx[1] = 0;
  cy[1] = 1;
  cz[1] = 0;
  cx[2] = 0;
  cy[2] = 0;
  cz[2] = 1;
  const px0 = st.x[xj] as number;
  const py0 = st.x[xj + 1] as number;
  const pz0 = st.x[xj + 2] as number;
  {
    const rx = px0 - (st.pos[pb] as number);
    const ry = py0 - (st.pos[pb + 1] as number);
    const rz = pz0 - (st.pos[pb + 2] as number);
    cx[3] = 0;
    cy[3] = -rz;
    cz[3] = ry;
    cx[4] = rz;
    cy[4] = 0;
    cz[4] = -rx;
    cx[5] = -ry;
    cy[5] = rx;
    cz[5] = 0;
  }
  const chain = chains[j]!;
  let c = 6;
  for (let ci = 0; ci < chain.length; ci++) {
    const i = chain[ci] as number;
    const ab = (f * b + i) * 9;
    const rx = px0 - (st.pos[pb + i * 3] as number);
    const ry = py0 - (st.pos[pb + i * 3 + 1] as number);
    const rz = pz0 - (st.pos[pb + i * 3 + 2] as number);
    for (let q = 0; q < 3; q++) {
      const s = st.s[(f * b + i) * 3 + q] as number;
      const ax = st.axes[ab + q * 3] as number;
      const ay = st.axes[ab + q * 3 + 1] as number;
      const az = st.axes[ab + q * 3 + 2] as number;
      cx[c] = s * (ay * rz - az * ry);
      cy[c] = s * (az * rx - ax * rz);
      cz[c] = s * (ax * ry - ay * rx);
      c++;
    }
  }
  return c;
}

/**
 * Adds the lower triangle of one keypoint's J^T W J (c columns, W = diag(wx, wy, wz)) into a
 * block at `base`, at the precomputed `entries` (pair (p, q <= p) in loop order).
 */
export function addGram(
  a: Float64Array,
  base: number,
  entries: Int32Array,
  c: number,
  wx: number,
  wy: number,
  wz: number,
  cx: Float64Array,
  cy: Float64Array,
  cz: Float64Array,
): void {
  // Columns 0-2 are the root translation's unit vectors: their pairs are the weights alone.
  a[base + (entries[0] as number)] = (a[base + (entries[0] as number)] as number) + wx;
  a[base + (entries[2] as number)] = (a[base + (entries[2] as number)] as number) + wy;
  a[base + (entries[5] as number)] = (a[base + (entries[5] as number)] as number) + wz;
  let e = 6;
  for (let p = 3; p < c; p++) {
    const qx = wx * (cx[p] as number);
    const qy = wy * (cy[p] as number);
    const qz = wz * (cz[p] as number);
    const e0 = base + (entries[e] as number);
    const e1 = base + (entries[e + 1] as number);
    const e2 = base + (entries[e + 2] as number);
    a[e0] = (a[e0] as number) + qx;
    a[e1] = (a[e1] as number) + qy;
    a[e2] = (a[e2] as number) + qz;
    e += 3;
    for (let q = 3; q <= p; q++) {
      const at = base + (entries[e++] as number);
      a[at] = (a[at] as number) + qx * (cx[q] as number) + qy * (cy[q] as number) + qz * (cz[q] as number);
    }
  }
}

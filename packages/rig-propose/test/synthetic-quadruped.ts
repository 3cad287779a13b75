import type { PreppedMesh } from '@mocap/rig-propose';

type Box = [number, number, number, number, number, number];

/** A mesh of axis-aligned boxes [x0, y0, z0, x1, y1, z1], 12 triangles each. */
export function boxesMesh(boxes: Box[]): PreppedMesh {
  const pos: number[] = [];
  const tri: number[] = [];
  const faces = [
    [0, 1, 3, 2],
    [4, 6, 7, 5],
    [0, 4, 5, 1],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 5, 7, 3],
  ];
  for (const [x0, y0, z0, x1, y1, z1] of boxes) {
    const base = pos.length / 3;
    for (let c = 0; c < 8; c++) pos.push(c & 4 ? x1 : x0, c & 2 ? y1 : y0, c & 1 ? z1 : z0);
    for (const [a, b, c, d] of faces)
      tri.push(base + a!, base + b!, base + c!, base + a!, base + c!, base + d!);
  }
  return { positions: Float64Array.from(pos), triangles: Uint32Array.from(tri) };
}

/**
 * A box creature 1 m long: torso y -0.35..0.35 at z 0.3..0.5, four legs 6 cm square down to the
 * ground at x +-0.1 and y -0.25 / +0.25, a head box in front and a tail box behind.
 */
export function boxQuadruped(extra: Box[] = []): PreppedMesh {
  const legs: Box[] = [];
  for (const x of [-0.1, 0.1])
    for (const y of [-0.25, 0.25]) legs.push([x - 0.03, y - 0.03, 0, x + 0.03, y + 0.03, 0.3]);
  return boxesMesh([
    [-0.14, -0.35, 0.3, 0.14, 0.35, 0.5],
    [-0.06, -0.5, 0.42, 0.06, -0.35, 0.55],
    [-0.02, 0.35, 0.38, 0.02, 0.5, 0.42],
    ...legs,
    ...extra,
  ]);
}

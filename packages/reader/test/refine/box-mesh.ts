/** An axis-aligned box (metres) as 8 corners and 12 triangles, for the rasteriser's tests. */
export function boxMesh(x0: number, x1: number, y0: number, y1: number, z0: number, z1: number) {
  const p: number[] = [];
  for (const z of [z0, z1]) for (const y of [y0, y1]) for (const x of [x0, x1]) p.push(x, y, z);
  const q = [
    [0, 1, 3, 2],
    [4, 5, 7, 6],
    [0, 1, 5, 4],
    [2, 3, 7, 6],
    [0, 2, 6, 4],
    [1, 3, 7, 5],
  ];
  const idx = q.flatMap(([a, b, c, d]) => [a, b, c, a, c, d]);
  return { world: Float64Array.from(p), indices: Uint32Array.from(idx) };
}

import { DEFAULT_LAYOUT, Layout, projectPoints, worldToFront, worldToSide } from '@mocap/layout';
import { frontUToX, sideUToY, viewsToWorld, vToZ } from '@mocap/layout/internal';
import { describe, expect, it } from 'vitest';

/** `n` x `n` x `n` points filling [0, 1)^3, off the round numbers (a grid: this package has no RNG). */
function grid(n: number): [number, number, number][] {
  const pts: [number, number, number][] = [];
  for (let a = 0; a < n; a++)
    for (let b = 0; b < n; b++)
      for (let c = 0; c < n; c++) pts.push([(a + 0.37) / n, (b + 0.61) / n, (c + 0.13) / n]);
  return pts;
}

const layouts = {
  wolf: DEFAULT_LAYOUT,
  custom: Layout.parse({
    W_FRONT: 500,
    W_SIDE: 780,
    GROUND_V: 600,
    M_PER_PX: 0.004,
    FRONT_CX: 0.1,
    SIDE_CY: -0.2,
  }),
};

describe('projections', () => {
  for (const [name, layout] of Object.entries(layouts)) {
    it(`round-trips world -> px -> world within 1e-9 m (${name})`, () => {
      for (const [a, b, c] of grid(10)) {
        const p = [(a - 0.5) * 2, (b - 0.5) * 3, c * 1.8];
        const [fu, fv] = worldToFront(p, layout);
        const [su, sv] = worldToSide(p, layout);
        expect(fv).toBe(sv);
        const q = viewsToWorld(fu, su, fv, layout);
        for (let k = 0; k < 3; k++) expect(Math.abs((q[k] as number) - (p[k] as number))).toBeLessThan(1e-9);
        expect(frontUToX(fu, layout)).toBeCloseTo(p[0] as number, 9);
        expect(sideUToY(su, layout)).toBeCloseTo(p[1] as number, 9);
        expect(vToZ(sv, layout)).toBeCloseTo(p[2] as number, 9);
      }
    });
  }

  it('follows the contract: front u grows with x, side u grows with -y, v grows with -z', () => {
    const l = DEFAULT_LAYOUT;
    expect(worldToFront([0, 0, 0], l)).toEqual([210, 640]);
    expect(worldToSide([0, 0, 0], l)).toEqual([420 + 430, 640]);
    expect(worldToFront([0.1, 0, 0], l)[0]).toBeGreaterThan(210);
    expect(worldToSide([0, -0.1, 0], l)[0]).toBeGreaterThan(850);
    expect(worldToFront([0, 0, 0.5], l)[1]).toBeCloseTo(640 - 0.5 / l.M_PER_PX, 9);
  });

  it('projects a T x J batch exactly like the single-point forms', () => {
    const n = 4 * 7;
    const world = Float64Array.from(
      grid(4)
        .flat()
        .slice(0, n * 3),
      (v) => v - 0.3,
    );
    const front = new Float64Array(n * 2);
    const side = new Float64Array(n * 2);
    projectPoints(front, side, world, layouts.custom);
    for (let i = 0; i < n; i++) {
      const p = world.subarray(3 * i, 3 * i + 3);
      expect([front[2 * i], front[2 * i + 1]]).toEqual(worldToFront(p, layouts.custom));
      expect([side[2 * i], side[2 * i + 1]]).toEqual(worldToSide(p, layouts.custom));
    }
  });

  it('rejects outputs too small for the batch', () => {
    expect(() =>
      projectPoints(new Float64Array(2), new Float64Array(4), new Float64Array(6), DEFAULT_LAYOUT),
    ).toThrow(/expected outputs of 4 values/);
  });
});

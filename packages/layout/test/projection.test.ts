import {
  DEFAULT_LAYOUT,
  frontUToX,
  Layout,
  projectPoints,
  sideUToY,
  viewsToWorld,
  vToZ,
  worldToFront,
  worldToSide,
} from '@mocap/layout';
import { describe, expect, it } from 'vitest';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
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
      const r = rng(7);
      for (let i = 0; i < 1000; i++) {
        const p = [(r() - 0.5) * 2, (r() - 0.5) * 3, r() * 1.8];
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
    const r = rng(3);
    const n = 4 * 7;
    const world = Float64Array.from({ length: n * 3 }, () => r() - 0.3);
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

import {
  DEFAULT_LAYOUT,
  Layout,
  projectPoints,
  ViewProjection,
  worldToFront,
  worldToSide,
} from '@mocap/layout';
import { describe, expect, it } from 'vitest';

const custom = Layout.parse({
  W_FRONT: 500,
  W_SIDE: 781,
  WIDTH: 1281,
  GROUND_V: 600.5,
  M_PER_PX: 0.0037,
  FRONT_CX: 0.1,
  SIDE_CY: -0.2,
});

/** World points on a 7 x 7 x 7 grid over a creature-sized box, off the round numbers. */
function grid(): number[][] {
  const pts: number[][] = [];
  for (let a = 0; a < 7; a++)
    for (let b = 0; b < 7; b++)
      for (let c = 0; c < 7; c++) pts.push([(a + 0.37) / 3.5 - 1, (b + 0.61) / 2.3 - 1.5, (c + 0.13) / 3.9]);
  return pts;
}

describe('ViewProjection', () => {
  for (const [name, layout] of Object.entries({ default: DEFAULT_LAYOUT, custom })) {
    it(`projects exactly as worldToFront / worldToSide / projectPoints (${name})`, () => {
      const proj = new ViewProjection(layout);
      const pts = grid();
      const front = new Float64Array(pts.length * 2);
      const side = new Float64Array(pts.length * 2);
      projectPoints(front, side, pts.flat(), layout);
      pts.forEach((p, i) => {
        const [x, y, z] = p as [number, number, number];
        expect([proj.frontU(x), proj.row(z)]).toEqual(worldToFront(p, layout));
        expect([proj.sideU(y), proj.row(z)]).toEqual(worldToSide(p, layout));
        expect([front[2 * i], front[2 * i + 1], side[2 * i], side[2 * i + 1]]).toEqual([
          proj.frontU(x),
          proj.row(z),
          proj.sideU(y),
          proj.row(z),
        ]);
      });
    });

    it(`inverts its projection within 1e-12 m (${name})`, () => {
      const proj = new ViewProjection(layout);
      for (const [x, y, z] of grid() as [number, number, number][]) {
        expect(Math.abs(proj.x(proj.frontU(x)) - x)).toBeLessThan(1e-12);
        expect(Math.abs(proj.y(proj.sideU(y)) - y)).toBeLessThan(1e-12);
        expect(Math.abs(proj.z(proj.row(z)) - z)).toBeLessThan(1e-12);
      }
    });
  }

  it('follows the contract: the centre columns see FRONT_CX and SIDE_CY, the ground row z = 0', () => {
    const proj = new ViewProjection(custom);
    expect(proj.frontU(custom.FRONT_CX)).toBe(250);
    expect(proj.sideU(custom.SIDE_CY)).toBe(500 + 390.5);
    expect(proj.row(0)).toBe(600.5);
    expect(proj.frontU(custom.FRONT_CX + 0.01)).toBeGreaterThan(250);
    expect(proj.sideU(custom.SIDE_CY + 0.01)).toBeLessThan(890.5);
    expect(proj.row(0.01)).toBeLessThan(600.5);
  });

  it('projectTo writes [frontU, sideU, row] at the offset and leaves the rest', () => {
    const proj = new ViewProjection(DEFAULT_LAYOUT);
    const out = new Float64Array(7).fill(-1);
    expect(proj.projectTo(out, 2, 0.1, -0.2, 0.3)).toBe(out);
    expect(Array.from(out)).toEqual([-1, -1, proj.frontU(0.1), proj.sideU(-0.2), proj.row(0.3), -1, -1]);
  });
});

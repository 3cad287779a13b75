import { DEFAULT_LAYOUT, projectPoints, triangulate } from '@mocap/layout';
import { describe, expect, it } from 'vitest';

describe('triangulate', () => {
  const world = Float64Array.of(0.1, -0.3, 0.5, -0.2, 0.4, 0.05);
  const front = new Float64Array(4);
  const side = new Float64Array(4);
  projectPoints(front, side, world, DEFAULT_LAYOUT);

  it('recovers exact points from consistent views', () => {
    const out = triangulate(new Float64Array(6), front, side, [1, 1], [1, 1], DEFAULT_LAYOUT);
    for (let i = 0; i < 6; i++) expect(out[i]).toBeCloseTo(world[i] as number, 12);
  });

  it('weights the rows 0.25 front / 1 side by confidence, and reports the height gap', () => {
    const f = front.slice();
    f[1] = (f[1] as number) - 10; // front row 10 px higher
    const gap = new Float64Array(2);
    const out = triangulate(new Float64Array(6), f, side, [1, 1], [1, 1], DEFAULT_LAYOUT, {}, gap);
    const vf = f[1] as number;
    const vs = side[1] as number;
    const v = (0.25 * vf + vs) / 1.25;
    expect(out[2]).toBeCloseTo((DEFAULT_LAYOUT.GROUND_V - v) * DEFAULT_LAYOUT.M_PER_PX, 12);
    expect(gap[0]).toBeCloseTo(10, 9);
    expect(gap[1]).toBeCloseTo(0, 9);
  });

  it('takes its weights as parameters and falls back to equal weights at zero confidence', () => {
    const f = front.slice();
    f[1] = (f[1] as number) + 8;
    const onlyFront = triangulate(new Float64Array(6), f, side, [1, 1], [1, 1], DEFAULT_LAYOUT, {
      sideWeight: 0,
    });
    expect(onlyFront[2]).toBeCloseTo(
      (DEFAULT_LAYOUT.GROUND_V - (f[1] as number)) * DEFAULT_LAYOUT.M_PER_PX,
      12,
    );
    const none = triangulate(new Float64Array(6), f, side, [0, 1], [0, 1], DEFAULT_LAYOUT);
    const mid = ((f[1] as number) + (side[1] as number)) / 2;
    expect(none[2]).toBeCloseTo((DEFAULT_LAYOUT.GROUND_V - mid) * DEFAULT_LAYOUT.M_PER_PX, 12);
  });

  it('rejects arrays that disagree on the joint count', () => {
    expect(() => triangulate(new Float64Array(6), front, side, [1, 1], [1], DEFAULT_LAYOUT)).toThrow(
      /joint count 2/,
    );
  });
});

import { creatureScales, type RigidPair } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

// Three keypoints of one rigid part at rest (layout px: x, y, z); pairs with their rest lengths.
const rest = [
  [0, 0, 0],
  [60, 0, 0],
  [0, 40, -30],
];
const pairs: RigidPair[] = [
  { a: 0, b: 1, px: 60 },
  { a: 0, b: 2, px: 50 },
  { a: 1, b: 2, px: Math.hypot(60, 40, 30) },
];

/** The part turned by `yaw` about the vertical, scaled by `s` and moved, seen in both views. */
function peaksAt(frames: { s: number; yaw: number }[], conf = 1) {
  const k = rest.length;
  const T = frames.length;
  const frontUv = new Float64Array(T * k * 2);
  const sideUv = new Float64Array(T * k * 2);
  frames.forEach(({ s, yaw }, t) => {
    rest.forEach(([x, y, z], i) => {
      const X = s * (Math.cos(yaw) * x! - Math.sin(yaw) * y!) + 200;
      const Y = s * (Math.sin(yaw) * x! + Math.cos(yaw) * y!) + 700;
      const Z = s * z! + 300;
      frontUv.set([X, Z], 2 * (t * k + i));
      sideUv.set([Y, Z], 2 * (t * k + i));
    });
  });
  const c = new Float64Array(T * k).fill(conf);
  return { frontUv, sideUv, frontConf: c, sideConf: c };
}

describe('creatureScales', () => {
  it('reads the zoom whatever the pose turns (3-D lengths from both views)', () => {
    const s = creatureScales(
      peaksAt([
        { s: 1, yaw: 0 },
        { s: 1.02, yaw: 0.3 },
        { s: 0.98, yaw: -0.25 },
      ]),
      3,
      3,
      pairs,
      {
        minPairs: 3,
      },
    );
    expect(s[0]).toBeCloseTo(1, 9);
    expect(s[1]).toBeCloseTo(1.02, 9);
    expect(s[2]).toBeCloseTo(0.98, 9);
  });

  it('gives NaN where too few pairs are confident', () => {
    const s = creatureScales(peaksAt([{ s: 1, yaw: 0 }], 0.1), 3, 1, pairs, { minPairs: 3 });
    expect(Number.isNaN(s[0])).toBe(true);
  });
});

import { DEFAULT_LAYOUT } from '@mocap/layout';
import { creatureZoom, layoutLines, type RigidPair, unzoom } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const { divider: D, ground: G } = layoutLines(DEFAULT_LAYOUT);

// Four keypoints of one rigid body (x, y, z in layout px about its centre), all pairs rigid.
const body = [
  [0, -80, 60],
  [0, 70, 50],
  [30, 0, 120],
  [-30, 10, 0],
];
const pairs: RigidPair[] = [];
for (let a = 0; a < 4; a++)
  for (let b = a + 1; b < 4; b++) {
    const [p, q] = [body[a]!, body[b]!];
    pairs.push({ a, b, px: Math.hypot(p[0]! - q[0]!, p[1]! - q[1]!, p[2]! - q[2]!) });
  }

/** The body swaying on every frame, seen through a calibration that shows it `zoom(t)` too large about the lines. */
function clip(T: number, zoom: (t: number) => number) {
  const frontUv = new Float64Array(T * 4 * 2);
  const sideUv = new Float64Array(T * 4 * 2);
  for (let t = 0; t < T; t++) {
    const yaw = 0.2 * Math.sin(t / 5);
    body.forEach(([x, y, z], i) => {
      const X = Math.cos(yaw) * x! - Math.sin(yaw) * y! + 210 + 3 * Math.sin(t / 7);
      const Y = Math.sin(yaw) * x! + Math.cos(yaw) * y! + 850;
      const V = G - 150 - z!;
      const e = zoom(t);
      frontUv.set([D + e * (X - D), G + e * (V - G)], 2 * (4 * t + i));
      sideUv.set([D + e * (Y - D), G + e * (V - G)], 2 * (4 * t + i));
    });
  }
  const conf = new Float64Array(T * 4).fill(1);
  return { frontUv, sideUv, frontConf: conf, sideConf: conf };
}

describe('creatureZoom', () => {
  it('reads a slow zoom from the creature size, relative to the anchor frame', () => {
    const T = 120;
    const z = creatureZoom(
      clip(T, (t) => 1 + 0.015 * (t / (T - 1))),
      4,
      T,
      pairs,
      0,
    );
    expect(z.applied).toBe(true);
    expect(z.change).toBeCloseTo(0.015, 4);
    expect(z.factor[0]).toBeCloseTo(1, 6);
    expect(z.factor[T - 1]).toBeCloseTo(1.015, 4);
  });

  it('takes no zoom from a clip whose creature keeps its size', () => {
    const z = creatureZoom(
      clip(120, () => 1),
      4,
      120,
      pairs,
      0,
    );
    expect(z.applied).toBe(false);
    expect(z.factor.every((f) => f === 1)).toBe(true);
  });
});

describe('unzoom', () => {
  it('scales points, moves bodies and rescales the track about the divider and ground row', () => {
    const T = 3;
    const factor = Float64Array.of(1, 1.01, 1.02);
    const truth = clip(T, () => 1);
    const seen = clip(T, (t) => factor[t]!);
    const points = { frontUv: Float64Array.from(seen.frontUv), sideUv: Float64Array.from(seen.sideUv) };
    unzoom(factor, DEFAULT_LAYOUT, { k: 4, points: [points] });
    for (let i = 0; i < points.frontUv.length; i++) {
      expect(points.frontUv[i]).toBeCloseTo(truth.frontUv[i]!, 9);
      expect(points.sideUv[i]).toBeCloseTo(truth.sideUv[i]!, 9);
    }
    // A body at its true size but centred where the zoom put it: moved back, shape kept.
    const bodies = { frontUv: Float64Array.from(truth.frontUv), sideUv: Float64Array.from(truth.sideUv) };
    const mean = (a: Float64Array, t: number, c: number) =>
      (a[8 * t + c]! + a[8 * t + 2 + c]! + a[8 * t + 4 + c]! + a[8 * t + 6 + c]!) / 4;
    for (let t = 0; t < T; t++) {
      const du = mean(seen.sideUv, t, 0) - mean(truth.sideUv, t, 0);
      for (let i = 0; i < 4; i++) bodies.sideUv[8 * t + 2 * i]! += du;
    }
    unzoom(factor, DEFAULT_LAYOUT, { k: 4, bodies: [bodies] });
    for (let t = 0; t < T; t++) expect(mean(bodies.sideUv, t, 0)).toBeCloseTo(mean(truth.sideUv, t, 0), 6);
    expect(bodies.sideUv[10]! - bodies.sideUv[8]!).toBeCloseTo(truth.sideUv[10]! - truth.sideUv[8]!, 9);
    // The track: a clip px that showed layout u now shows D + (u - D) / factor.
    const track = Float64Array.of(1, 1, 0, 0, 1.01, 1.01, -4.19, -6.4, 1.02, 1.02, -8.38, -12.8);
    const before = track.slice();
    unzoom(factor, DEFAULT_LAYOUT, { k: 4, track });
    for (let t = 0; t < T; t++) {
      const x = 1000;
      const u = before[4 * t]! * x + before[4 * t + 2]!;
      expect(track[4 * t]! * x + track[4 * t + 2]!).toBeCloseTo(D + (u - D) / factor[t]!, 9);
    }
  });
});

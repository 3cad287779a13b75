import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { decodeHeatmaps, peaksToLayout, viewTransform } from '@mocap/reader';
import { gaussianHeatmaps, heatmapToLayout, layoutToHeatmap } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

/** A rotated anisotropic Gaussian written independently of the library, HWC. */
function rotatedGaussian(
  size: number,
  joints: { cx: number; cy: number; sx: number; sy: number; th: number }[],
) {
  const out = new Float32Array(size * size * joints.length);
  joints.forEach((g, j) => {
    const c = Math.cos(g.th);
    const s = Math.sin(g.th);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const dx = x + 0.5 - g.cx;
        const dy = y + 0.5 - g.cy;
        const a = (c * dx + s * dy) / g.sx;
        const b = (-s * dx + c * dy) / g.sy;
        out[(y * size + x) * joints.length + j] = 0.9 * Math.exp(-0.5 * (a * a + b * b));
      }
  });
  return out;
}

describe('decodeHeatmaps', () => {
  it('finds exactly known sub-pixel Gaussian peaks to well under 0.1 px', () => {
    const rng = seededRandom(3);
    const size = 64;
    const joints = Array.from({ length: 24 }, () => ({
      cx: rng.uniform(3, 61),
      cy: rng.uniform(3, 61),
      sx: rng.uniform(1.2, 3),
      sy: rng.uniform(1.2, 3),
      th: rng.uniform(0, Math.PI),
    }));
    const { xy, conf } = decodeHeatmaps(rotatedGaussian(size, joints), size, joints.length);
    let worst = 0;
    joints.forEach((g, j) => {
      worst = Math.max(worst, Math.hypot(xy[2 * j]! - g.cx, xy[2 * j + 1]! - g.cy));
      expect(conf[j]).toBeGreaterThan(0.85);
    });
    expect(worst).toBeLessThan(0.01);
  });

  it('is exact on the library Gaussian targets and reads an offset batch slice', () => {
    const size = 32;
    const truth = new Float32Array([5.25, 7.75, 16.5, 16.5, 30.1, 2.4]);
    const one = gaussianHeatmaps(truth, size, 2);
    const batch = new Float32Array(one.length * 2);
    batch.set(one, one.length);
    const { xy, conf } = decodeHeatmaps(batch, size, 3, one.length);
    for (let i = 0; i < truth.length; i++) expect(xy[i]).toBeCloseTo(truth[i]!, 3);
    expect(conf[1]).toBeCloseTo(1, 5);
  });

  it('falls back to a per-axis parabola at the border and with non-positive values', () => {
    const size = 8;
    const data = new Float32Array(size * size).fill(-1);
    // A peak on the left edge (x = 0): x is not refined, y is.
    data[3 * size + 0] = 1;
    data[2 * size + 0] = 0.5;
    data[4 * size + 0] = 0.5;
    const { xy, conf } = decodeHeatmaps(data, size, 1);
    expect(xy[0]).toBe(0.5);
    expect(xy[1]).toBeCloseTo(3.5, 6);
    expect(conf[0]).toBe(1);
  });

  it('gives a margin near the peak value for one peak and the gap to a competing second peak', () => {
    const size = 48;
    // Joint 0: one peak of 0.9; joint 1: peaks of 0.9 and 0.6 far apart; joint 2: 0.9 and 0.85.
    const one = rotatedGaussian(size, [{ cx: 20.3, cy: 14.6, sx: 2, sy: 2, th: 0 }]);
    const far = rotatedGaussian(size, [{ cx: 36.5, cy: 30.2, sx: 2, sy: 2, th: 0 }]);
    const data = new Float32Array(size * size * 3);
    for (let p = 0; p < size * size; p++) {
      data[p * 3] = one[p]!;
      data[p * 3 + 1] = Math.max(one[p]!, (far[p]! * 0.6) / 0.9);
      data[p * 3 + 2] = Math.max(one[p]!, (far[p]! * 0.85) / 0.9);
    }
    const { conf, margin, xy } = decodeHeatmaps(data, size, 3);
    for (let j = 0; j < 3; j++) {
      expect(xy[2 * j]).toBeCloseTo(20.3, 1);
      expect(conf[j]).toBeGreaterThan(0.85);
    }
    // Beyond 5 px a sigma-2 Gaussian has fallen to exp(-25 / 8) of its peak (4%).
    expect(margin[0]).toBeGreaterThan(0.8);
    expect(margin[1]).toBeCloseTo(conf[1]! - 0.6, 1);
    expect(margin[2]).toBeLessThan(0.1);
    // A tighter radius counts the peak's own tail as competition.
    expect(decodeHeatmaps(data, size, 3, 0, 2).margin[0]).toBeLessThan(margin[0]! - 0.2);
  });

  it('gives confidence 0 for an all-negative map', () => {
    const { conf } = decodeHeatmaps(new Float32Array(16).fill(-3), 4, 1);
    expect(conf[0]).toBe(0);
  });
});

describe('view transform', () => {
  it('pads the front view to a centred square and maps layout px to heatmap px and back', () => {
    const front = viewTransform(DEFAULT_LAYOUT, 'front', 256, 64);
    expect(front).toMatchObject({ x0: 0, width: 420, height: 720, side: 720, padLeft: 150, padTop: 0 });
    const side = viewTransform(DEFAULT_LAYOUT, 'side', 256, 64);
    expect(side).toMatchObject({ x0: 420, width: 860, side: 860, padLeft: 0, padTop: 70 });
    // The view's centre column lands on the square's centre.
    expect(layoutToHeatmap(front, 210, 360)).toEqual([32, 32]);
    expect(layoutToHeatmap(side, 420 + 430, 360)).toEqual([32, 32]);
    const [x, y] = layoutToHeatmap(side, 1000.3, 611.7);
    const [u, v] = heatmapToLayout(side, x, y);
    expect(u).toBeCloseTo(1000.3, 9);
    expect(v).toBeCloseTo(611.7, 9);
  });

  it('decodes Gaussians rendered at layout points back to those points', () => {
    const t = viewTransform(DEFAULT_LAYOUT, 'side', 256, 64);
    const truth = [
      [500.2, 100.9],
      [1100.6, 640.3],
      [870.05, 360.5],
    ] as const;
    const xy = new Float32Array(truth.flatMap(([u, v]) => layoutToHeatmap(t, u, v)));
    const uv = peaksToLayout(decodeHeatmaps(gaussianHeatmaps(xy, 64, 2), 64, 3), t);
    truth.forEach(([u, v], j) => {
      expect(Math.abs(uv[2 * j]! - u)).toBeLessThan(0.05);
      expect(Math.abs(uv[2 * j + 1]! - v)).toBeLessThan(0.05);
    });
  });
});

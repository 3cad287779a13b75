import { scaleTrend } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

describe('scaleTrend', () => {
  it('finds a slow zoom through a swinging series with a few wrong frames', () => {
    const T = 120;
    const v = Array.from({ length: T }, (_, t) => 1 + 0.015 * (t / (T - 1)) + 0.01 * Math.sin(t / 3));
    v[10] = 1.3;
    v[50] = 0.7;
    v[51] = Number.NaN;
    const tr = scaleTrend(v)!;
    expect(tr.slope * (T - 1)).toBeCloseTo(0.015, 2);
    expect(tr.intercept).toBeCloseTo(1, 2);
    expect(tr.n).toBe(T - 1);
    expect(Math.abs(tr.slope) / tr.slopeSe).toBeGreaterThan(3);
  });

  it('finds no slope on a still series, and nothing from under 4 values', () => {
    const tr = scaleTrend(Array.from({ length: 40 }, (_, t) => 1 + 0.002 * Math.sin(t)))!;
    expect(Math.abs(tr.slope * 39)).toBeLessThan(0.002);
    expect(scaleTrend([1, 1, Number.NaN, 1])).toBeNull();
  });
});

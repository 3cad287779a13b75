import { FitState } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { jerkWeightsOfScales, robustJerkWeights, weightedJerkBands } from '../src/jerk-weights.js';
import { addDiffGram } from '../src/linalg.js';
import { wolfFixture } from './helpers/wolf-fixture.js';

describe('jerk weights', () => {
  const { data } = wolfFixture({ frames: 20, seed: 2 });
  const m = data.model.bones.length * 3;

  it('is empty (uniform) until weights are set, and D^T D per angle when every weight is 1', () => {
    expect(weightedJerkBands(data, m).length).toBe(0);
    const d = { ...data, jerkWeight: new Float64Array(data.t * m).fill(1) };
    const bands = weightedJerkBands(d, m);
    const ord = data.weights.order;
    const ref = new Float64Array((ord + 1) * data.t);
    addDiffGram(ref, data.t, ord, 1);
    for (const q of [3, 17, m - 1]) {
      const got = bands.subarray(q * (ord + 1) * data.t, (q + 1) * (ord + 1) * data.t);
      expect(Array.from(got)).toEqual(Array.from(ref));
    }
  });

  it('repeats per-bone scales on every frame', () => {
    const w = jerkWeightsOfScales(Float64Array.from([1, 0.5, 0.25]), 4);
    expect(Array.from(w.subarray(27, 36))).toEqual([1, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25, 0.25]);
  });

  it('lets a sudden flick through and keeps the weight of smooth motion', () => {
    const st = new FitState(data.model, data.t);
    const free = [...Array(m).keys()].filter((q) => {
      const i = (q / 3) | 0;
      const a = q % 3;
      const lim = data.model.limits;
      return i > 0 && (lim[i * 6 + 2 * a + 1] as number) > (lim[i * 6 + 2 * a] as number);
    });
    // Every free angle a slow sine; one angle also jumps by 1 rad at frame 10.
    for (let f = 0; f < data.t; f++) {
      for (const q of free) st.e[f * m + q] = 0.2 * Math.sin(0.3 * f + q);
    }
    const flick = free[5] as number;
    for (let f = 10; f < data.t; f++) st.e[f * m + flick] = (st.e[f * m + flick] as number) + 1;
    const w = robustJerkWeights(data, st, new Float64Array(0), 3);
    // The residuals over frames 7..10 span the jump.
    for (let r = 7; r <= 9; r++) expect(w[r * m + flick] as number).toBeLessThan(0.05);
    expect(w[2 * m + flick] as number).toBeGreaterThan(0.5);
    expect(w[8 * m + (free[6] as number)] as number).toBeGreaterThan(0.5);
    // Base weights multiply in.
    const base = new Float64Array(data.t * m).fill(0.5);
    const wb = robustJerkWeights(data, st, base, 3);
    expect(wb[2 * m + flick]).toBeCloseTo(0.5 * (w[2 * m + flick] as number), 12);
  });
});

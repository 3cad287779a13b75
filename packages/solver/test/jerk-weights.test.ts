import { ViewProjection } from '@mocap/layout';
import { FitState, initialPose } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAG_RELEASE,
  jerkWeightsOfScales,
  laggingJerkWeights,
  robustJerkWeights,
  weightedJerkBands,
} from '../src/jerk-weights.js';
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

describe('laggingJerkWeights', () => {
  const { data: fixture, names } = wolfFixture({ frames: 24, seed: 3 });
  const m = fixture.model.bones.length * 3;
  const ord = fixture.weights.order;
  const { pad, factor } = DEFAULT_LAG_RELEASE;

  /** Detections exactly at the state's keypoints, but `moved` (frame, keypoint, front, side) px off. */
  function dataAt(moved: [number, number, boolean, boolean][]) {
    const st = new FitState(fixture.model, fixture.t);
    initialPose(fixture, st);
    const data = { ...fixture, front: fixture.front.slice(), side: fixture.side.slice() };
    data.frontConf = new Float64Array(data.t * data.k).fill(1);
    data.sideConf = new Float64Array(data.t * data.k).fill(1);
    const proj = new ViewProjection(data.layout);
    for (let i = 0; i < data.t * data.k; i++) {
      data.front[2 * i] = proj.frontU(st.x[3 * i] as number);
      data.side[2 * i] = proj.sideU(st.x[3 * i + 1] as number);
      data.front[2 * i + 1] = data.side[2 * i + 1] = proj.row(st.x[3 * i + 2] as number);
    }
    for (const [f, j, front, side] of moved) {
      const i = f * data.k + j;
      if (front) data.front[2 * i] = (data.front[2 * i] as number) + 12;
      if (side) data.side[2 * i] = (data.side[2 * i] as number) + 12;
    }
    return { data, st };
  }

  it('releases the bones carrying a keypoint that lags in both views for three frames running', () => {
    const j = names.indexOf('fpaw.L');
    const other = names.indexOf('hpaw.R');
    const { data, st } = dataAt([
      ...[6, 7, 8, 9].map((f) => [f, j, true, true] as [number, number, boolean, boolean]),
      // An outlier seen by one view, for five frames: not a lag.
      ...[12, 13, 14, 15, 16].map((f) => [f, other, true, false] as [number, number, boolean, boolean]),
      // Both views, but two frames only: not a lag.
      [20, other, true, true],
      [21, other, true, true],
    ]);
    const { weights, lags } = laggingJerkWeights(data, st, new Float64Array(0), 2, DEFAULT_LAG_RELEASE);
    expect(lags).toBe(4);
    const chain = data.chains[j] as Int32Array;
    const released = new Set([chain[0], chain[1]]);
    for (let r = 0; r < data.t; r++) {
      for (let q = 0; q < m; q++) {
        const inRows = r >= 6 - ord - pad && r <= 9 + pad;
        const want = inRows && released.has((q / 3) | 0) ? factor : 1;
        expect(weights[r * m + q]).toBe(want);
      }
    }
  });

  it('scales the base weights and finds nothing in detections that agree with the fit', () => {
    const { data, st } = dataAt([]);
    const base = new Float64Array(data.t * m).fill(0.5);
    const none = laggingJerkWeights(data, st, base, 2, DEFAULT_LAG_RELEASE);
    expect(none.lags).toBe(0);
    expect(Array.from(none.weights)).toEqual(Array.from(base));
    const j = names.indexOf('htoe.R');
    const lagging = dataAt([10, 11, 12].map((f) => [f, j, true, true] as [number, number, boolean, boolean]));
    const w = laggingJerkWeights(lagging.data, lagging.st, base, 2, DEFAULT_LAG_RELEASE).weights;
    const bone = (lagging.data.chains[j] as Int32Array)[0] as number;
    expect(w[10 * m + bone * 3]).toBe(0.5 * factor);
  });
});

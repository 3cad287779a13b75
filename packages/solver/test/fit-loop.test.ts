import {
  BlockPreconditioner,
  clipLmLoop,
  createLoopScratch,
  createWorkspace,
  FitState,
  fitCost,
  frameLmLoop,
  initialPose,
  lmLoop,
} from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { wolfFixture } from './helpers/wolf-fixture.js';

function problem() {
  const { data } = wolfFixture({ frames: 16, seed: 6 });
  const st = new FitState(data.model, data.t);
  initialPose(data, st);
  frameLmLoop(data, st, { iterations: 3 });
  return { data, st };
}

describe('lmLoop', () => {
  it('lands at the same cost with each preconditioner (block Gauss-Seidel, block-Jacobi, Schwarz)', () => {
    const { data, st } = problem();
    const start = fitCost(data, st.update(), 6);
    const costs = [{ gaussSeidel: true }, { gaussSeidel: false }, { gaussSeidel: false, schwarz: true }].map(
      (pre) => {
        const s = new FitState(data.model, data.t).copyFrom(st);
        const r = lmLoop(data, s, { iterations: 6, scaleStart: 6, scaleEnd: 6, cgIterations: 60, ...pre });
        return r.cost;
      },
    );
    for (const c of costs) expect(c).toBeLessThan(start);
    // From a cost in the millions (the frame-wise start ignores the temporal priors) all three
    // land within 1% of each other, block Gauss-Seidel no worse than block-Jacobi.
    const best = Math.min(...costs);
    for (const c of costs) expect((c - best) / best).toBeLessThan(1e-2);
    expect(costs[0]).toBeLessThanOrEqual((costs[1] as number) * (1 + 1e-3));
  });

  it('never leaves a Euler angle outside its limits', () => {
    const { data, st } = problem();
    lmLoop(data, st, { iterations: 3, scaleStart: 6, scaleEnd: 6 });
    const lim = data.model.limits;
    for (let f = 0; f < data.t; f++) {
      for (let i = 1; i < st.b; i++) {
        for (let a = 0; a < 3; a++) {
          const e = st.e[(f * st.b + i) * 3 + a] as number;
          expect(e).toBeGreaterThanOrEqual(lim[i * 6 + 2 * a] as number);
          expect(e).toBeLessThanOrEqual(lim[i * 6 + 2 * a + 1] as number);
        }
      }
    }
  });

  it('lands on the same state with buffers shared across loops as with fresh ones', () => {
    const { data, st } = problem();
    const run = (shared: boolean) => {
      const s = new FitState(data.model, data.t).copyFrom(st);
      const scratch = shared ? createLoopScratch(data, s) : undefined;
      const opts = scratch ? { scratch } : {};
      frameLmLoop(data, s, { iterations: 2, scaleStart: 12, scaleEnd: 6, ...opts });
      lmLoop(data, s, { iterations: 2, scaleStart: 6, scaleEnd: 6, ...opts });
      frameLmLoop(data, s, { iterations: 1, scaleStart: 6, scaleEnd: 6, ...opts });
      lmLoop(data, s, { iterations: 1, scaleStart: 6, scaleEnd: 6, ...opts });
      return Array.from(s.p);
    };
    expect(run(true)).toEqual(run(false));
  });

  it('refuses buffers made for another frame count', () => {
    const { data, st } = problem();
    const other = new FitState(data.model, data.t - 1);
    const scratch = { trial: other, pre: new BlockPreconditioner(data, other), ws: createWorkspace(other) };
    expect(() => lmLoop(data, st, { iterations: 1, scratch })).toThrow(TypeError);
  });
});

describe('frameLmLoop', () => {
  it('lands on the same state in windows of any length as over the whole clip at once', () => {
    const { data, st } = problem();
    const run = (window: number) => {
      const s = new FitState(data.model, data.t).copyFrom(st);
      const r = frameLmLoop(data, s, { iterations: 3, scaleStart: 12, scaleEnd: 6, window });
      return { p: Array.from(s.p), x: Array.from(s.x), cost: r.cost };
    };
    const whole = run(data.t);
    for (const window of [1, 5, 7]) {
      const w = run(window);
      expect(w.p).toEqual(whole.p);
      expect(w.x).toEqual(whole.x);
      expect(w.cost).toBeCloseTo(whole.cost, 9);
    }
  });
});

describe('clipLmLoop', () => {
  it('is lmLoop when the clip fits one window', () => {
    const { data, st } = problem();
    const a = new FitState(data.model, data.t).copyFrom(st);
    const b = new FitState(data.model, data.t).copyFrom(st);
    const opts = { iterations: 2, scaleStart: 6, scaleEnd: 6 };
    const ra = lmLoop(data, a, opts);
    const rb = clipLmLoop(data, b, { ...opts, window: data.t });
    expect(Array.from(b.p)).toEqual(Array.from(a.p));
    expect(rb.cgIterations).toBe(ra.cgIterations);
  });

  it('in windows with context on each side fits as well as the whole clip at once (error against the truth), angles within limits', () => {
    const { data, truth } = wolfFixture({ frames: 48, seed: 7 });
    const meanErr = (s: FitState) => {
      let e = 0;
      for (let i = 0; i < s.x.length; i += 3)
        e += Math.hypot(
          (s.x[i] as number) - (truth.joints[i] as number),
          (s.x[i + 1] as number) - (truth.joints[i + 1] as number),
          (s.x[i + 2] as number) - (truth.joints[i + 2] as number),
        );
      return (100 * e) / (s.x.length / 3);
    };
    const st = new FitState(data.model, data.t);
    initialPose(data, st);
    frameLmLoop(data, st, { iterations: 3 });
    const start = fitCost(data, st.update(), 6);
    const opts = { iterations: 3, scaleStart: 6, scaleEnd: 6 };
    const whole = new FitState(data.model, data.t).copyFrom(st);
    lmLoop(data, whole, opts);
    const wholeCost = fitCost(data, whole.update(), 6);
    const cut = new FitState(data.model, data.t).copyFrom(st);
    const r = clipLmLoop(data, cut, { ...opts, window: 24, pad: 8 });
    expect(r.attempts).toBeGreaterThanOrEqual(6); // two runs of 24 frames (+ 8 of context), 3 steps each
    const cutCost = fitCost(data, cut.update(), 6);
    expect(cutCost).toBeLessThan(start / 100);
    // The objective a few % above (each run's edge frames see 8 frames of context, not all);
    // the error against the truth the same to 0.005 cm (0.37 cm here).
    expect(Math.abs(cutCost - wholeCost) / wholeCost).toBeLessThan(5e-2);
    expect(Math.abs(meanErr(cut) - meanErr(whole))).toBeLessThan(5e-3);
    const lim = data.model.limits;
    for (let f = 0; f < data.t; f++) {
      for (let i = 1; i < cut.b; i++) {
        for (let a = 0; a < 3; a++) {
          const e = cut.e[(f * cut.b + i) * 3 + a] as number;
          expect(e).toBeGreaterThanOrEqual(lim[i * 6 + 2 * a] as number);
          expect(e).toBeLessThanOrEqual(lim[i * 6 + 2 * a + 1] as number);
        }
      }
    }
  });
});

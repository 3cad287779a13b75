import {
  createWorkspace,
  FitState,
  fitCost,
  fitGradient,
  fitHessVec,
  initialPose,
} from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { wolfFixture } from './helpers/wolf-fixture.js';

/** Jerk weights: one for all, per bone by lever, or varying over frames and angles. */
type Jerk = 'uniform' | 'lever' | 'varying';

function problem(angleSteps: boolean, jerk: Jerk = 'uniform') {
  const jerkLever = jerk === 'lever' ? 2 : 0;
  const { data } = wolfFixture({
    frames: 6,
    seed: 4,
    corrupt: { noisePx: 3, outliers: 0.1 },
    // Every term on, at weights where each matters.
    weights: {
      jerk: 50,
      jerkLever,
      velocity: 3,
      rest: 2,
      rootJerk: 0.5,
      rootTurnJerk: 500,
      jointAccel: 0.5,
      ground: 5,
    },
  });
  if (jerk === 'varying') {
    const m = data.model.bones.length * 3;
    data.jerkWeight = Float64Array.from({ length: data.t * m }, (_, i) => 0.1 + ((i * 0.618) % 1));
  }
  const st = new FitState(data.model, data.t);
  st.angleSteps = angleSteps;
  initialPose(data, st);
  for (let f = 0; f < data.t; f++) st.trans[f * 3 + 2] = (st.trans[f * 3 + 2] as number) - 0.01; // some feet below ground
  st.update();
  return { data, st };
}

describe('fitGradient', () => {
  for (const [angleSteps, jerk] of [
    [true, 'uniform'],
    [false, 'uniform'],
    [true, 'lever'],
    [true, 'varying'],
  ] as const) {
    it(`matches central finite differences of fitCost (${angleSteps ? 'angle' : 'sigmoid'} steps, ${jerk} jerk)`, () => {
      const { data, st } = problem(angleSteps, jerk);
      const scale = 7;
      const w = { front: new Float64Array(data.t * data.k), side: new Float64Array(data.t * data.k) };
      fitCost(data, st, scale, w);
      const g = new Float64Array(data.t * st.n);
      fitGradient(data, st, w, createWorkspace(st), g);
      const trial = new FitState(data.model, data.t);
      trial.angleSteps = angleSteps;
      const d = new Float64Array(g.length);
      const h = 1e-5;
      let worst = 0;
      let checked = 0;
      for (let i = 0; i < g.length; i += 1) {
        d.fill(0);
        d[i] = h;
        const cp = fitCost(data, trial.applyStep(st, d).update(), scale);
        d[i] = -h;
        const cm = fitCost(data, trial.applyStep(st, d).update(), scale);
        const fd = (cp - cm) / (2 * h);
        worst = Math.max(worst, Math.abs(fd - (g[i] as number)) / (1e-2 + Math.abs(fd)));
        checked++;
      }
      expect(checked).toBe(g.length);
      expect(worst).toBeLessThan(1e-4);
    });
  }

  it.each(['uniform', 'lever', 'varying'] as const)(
    'has a symmetric positive semi-definite Gauss-Newton Hessian (%s jerk)',
    (jerk) => {
      const { data, st } = problem(true, jerk);
      const w = { front: new Float64Array(data.t * data.k), side: new Float64Array(data.t * data.k) };
      fitCost(data, st, 7, w);
      const ws = createWorkspace(st);
      const n = data.t * st.n;
      const u = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 1.3));
      const v = Float64Array.from({ length: n }, (_, i) => Math.cos(i * 0.7));
      const hu = fitHessVec(data, st, w, ws, u, new Float64Array(n));
      const hv = fitHessVec(data, st, w, ws, v, new Float64Array(n));
      let uhv = 0;
      let vhu = 0;
      let uhu = 0;
      for (let i = 0; i < n; i++) {
        uhv += (u[i] as number) * (hv[i] as number);
        vhu += (v[i] as number) * (hu[i] as number);
        uhu += (u[i] as number) * (hu[i] as number);
      }
      expect(Math.abs(uhv - vhu)).toBeLessThan(1e-9 * Math.abs(uhu));
      expect(uhu).toBeGreaterThan(0);
    },
  );
});

import {
  BlockPreconditioner,
  createLoopScratch,
  createWorkspace,
  DEFAULT_FIT_WEIGHTS,
  type FitData,
  FitState,
  fitCost,
  frameLmLoop,
  initialPose,
  keypointChains,
  lmLoop,
  orthonormalRigModel,
  syntheticDetections,
  syntheticMotion,
} from '@mocap/solver';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

function problem() {
  const { model: exact, layout, info } = loadCreature('wolf');
  const model = orthonormalRigModel(exact);
  const t = 16;
  const truth = syntheticMotion(model, info, { frames: t, seed: 6 });
  const names = model.keypoints.map((k) => k.name);
  const det = syntheticDetections(truth.joints, names, 30, layout, info, {
    noisePx: 2,
    outliers: 0.05,
    seed: 6,
  });
  const data: FitData = {
    model,
    layout,
    t,
    k: names.length,
    front: Float64Array.from(det.frontUv, (x) => (Number.isFinite(x) ? x : 0)),
    side: Float64Array.from(det.sideUv, (x) => (Number.isFinite(x) ? x : 0)),
    frontConf: Float64Array.from(det.frontConf),
    sideConf: Float64Array.from(det.sideConf),
    feet: Int32Array.from(info.feet),
    weights: { ...DEFAULT_FIT_WEIGHTS },
    chains: keypointChains(model),
  };
  const st = new FitState(model, t);
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

import {
  createRng,
  DEFAULT_FIT_WEIGHTS,
  type FitData,
  FitState,
  frameCosts,
  initialPose,
  keypointChains,
  orthonormalRigModel,
  syntheticDetections,
  syntheticMotion,
} from '@mocap/solver';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

function problem() {
  const { model: exact, layout, info } = loadCreature('wolf');
  const model = orthonormalRigModel(exact);
  const t = 5;
  const truth = syntheticMotion(model, info, { frames: t, seed: 2 });
  const names = model.keypoints.map((k) => k.name);
  const det = syntheticDetections(truth.joints, names, 30, layout, info, {
    noisePx: 2,
    outliers: 0.05,
    seed: 2,
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
  const rng = createRng(5);
  const step = Float64Array.from({ length: t * st.n }, () => 0.05 * rng.normal());
  return { data, st, step };
}

const derived = (s: FitState) => [s.e, s.s, s.rot, s.pos, s.axes, s.x];

describe('FitState', () => {
  it('steps and updates only the frames asked for, exactly as a full step would', () => {
    const { st, step } = problem();
    const full = new FitState(st.model, st.t).copyFrom(st).applyStep(st, step).update();
    const only = Uint8Array.from([0, 1, 0, 1, 1]);
    const part = new FitState(st.model, st.t).copyAll(st).applyStep(st, step, 1, only).update(only);
    for (let f = 0; f < st.t; f++) {
      const ref = only[f] ? full : st;
      const span = (a: Float64Array, w: number) => Array.from(a.subarray(f * w, (f + 1) * w));
      expect(span(part.p, st.b * 3)).toEqual(span(ref.p, st.b * 3));
      expect(span(part.x, st.k * 3)).toEqual(span(ref.x, st.k * 3));
      expect(span(part.rot, st.b * 9)).toEqual(span(ref.rot, st.b * 9));
    }
  });

  it('copies every derived array with copyAll (no FK needed afterwards)', () => {
    const { st, step } = problem();
    const moved = new FitState(st.model, st.t).copyFrom(st).applyStep(st, step).update();
    const copy = new FitState(st.model, st.t).copyAll(moved);
    const recomputed = new FitState(st.model, st.t).copyFrom(moved).update();
    derived(copy).forEach((a, i) => {
      expect(Array.from(a)).toEqual(Array.from(derived(recomputed)[i] as Float64Array));
    });
  });

  it('costs only the frames asked for in frameCosts', () => {
    const { data, st } = problem();
    const all = frameCosts(data, st, 6, new Float64Array(st.t));
    const some = frameCosts(data, st, 6, new Float64Array(st.t).fill(-1), Uint8Array.from([1, 0, 0, 1, 0]));
    expect(Array.from(some)).toEqual([all[0], -1, -1, all[3], -1]);
  });
});

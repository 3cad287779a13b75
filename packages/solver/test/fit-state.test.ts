import { seededRandom } from '@mocap/anim-loop';
import { FitState, frameCosts, initialPose } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { wolfFixture } from './helpers/wolf-fixture.js';

function problem() {
  const { data } = wolfFixture({ frames: 5, seed: 2 });
  const st = new FitState(data.model, data.t);
  initialPose(data, st);
  const rng = seededRandom(5, { seedMix: 'golden', normal: 'pair' });
  const step = Float64Array.from({ length: data.t * st.n }, () => 0.05 * rng.normal());
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

describe('FitState.frames', () => {
  it('is a view: what is done to the window is done to those frames of the state', () => {
    const { st, step } = problem();
    const moved = new FitState(st.model, st.t).copyFrom(st).applyStep(st, step).update();
    const copy = new FitState(st.model, st.t).copyAll(st);
    const win = copy.frames(1, 3);
    expect(win.t).toBe(3);
    win.applyStep(st.frames(1, 3), step.subarray(st.n, 4 * st.n)).update();
    for (let f = 0; f < st.t; f++) {
      const ref = f >= 1 && f <= 3 ? moved : st;
      derived(copy).forEach((a, i) => {
        const w = a.length / st.t;
        const b = derived(ref)[i] as Float64Array;
        expect(Array.from(a.subarray(f * w, (f + 1) * w))).toEqual(
          Array.from(b.subarray(f * w, (f + 1) * w)),
        );
      });
    }
  });

  it('refuses frames outside the state', () => {
    const { st } = problem();
    expect(() => st.frames(3, 3)).toThrow(TypeError);
    expect(() => st.frames(-1, 2)).toThrow(TypeError);
  });
});

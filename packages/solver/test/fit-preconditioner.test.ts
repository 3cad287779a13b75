import { seededRandom } from '@mocap/anim-loop';
import type { FitWeights } from '@mocap/solver';
import {
  BlockPreconditioner,
  createWorkspace,
  FitState,
  fitCost,
  fitHessVec,
  initialPose,
} from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { wolfFixture } from './helpers/wolf-fixture.js';

function problem(creature: 'wolf' | 'dragon', weights: Partial<FitWeights>, varyingJerk = false) {
  const { data } = wolfFixture({
    creature,
    frames: 7,
    seed: 3,
    corrupt: { noisePx: 3, outliers: 0.1 },
    weights: { ground: 5, ...weights },
  });
  const { t } = data;
  if (varyingJerk) {
    const m = data.model.bones.length * 3;
    data.jerkWeight = Float64Array.from({ length: t * m }, (_, i) => 0.1 + ((i * 0.618) % 1));
  }
  const st = new FitState(data.model, t);
  initialPose(data, st);
  for (let f = 0; f < t; f++) st.trans[f * 3 + 2] = (st.trans[f * 3 + 2] as number) - 0.01; // some feet below ground
  st.update();
  const w = { front: new Float64Array(t * data.k), side: new Float64Array(t * data.k) };
  fitCost(data, st, 6, w);
  const pre = new BlockPreconditioner(data, st);
  pre.rebuild(st, w, 1);
  return { data, st, w, pre };
}

/** A seeded random vector over the free variables (0 on the axes a rig fixes). */
function randomVector(st: FitState, seed: number): Float64Array {
  const rng = seededRandom(seed, { seedMix: 'golden', normal: 'pair' });
  const v = new Float64Array(st.t * st.n);
  for (let f = 0; f < st.t; f++) {
    for (let q = 0; q < st.n; q++) {
      const free = q < 6 || (st.s[f * st.b * 3 + q - 3] as number) > 0;
      v[f * st.n + q] = free ? rng.normal() : 0;
    }
  }
  return v;
}

const dot = (a: Float64Array, b: Float64Array): number => a.reduce((s, x, i) => s + x * (b[i] as number), 0);

const TEMPORAL_OFF = { jerk: 0, velocity: 0, rootJerk: 0, rootTurnJerk: 0, jointAccel: 0 };

describe('BlockPreconditioner', () => {
  for (const creature of ['wolf', 'dragon'] as const) {
    it(`inverts the Gauss-Newton matrix exactly when no term couples frames (${creature})`, () => {
      const { data, st, w, pre } = problem(creature, TEMPORAL_OFF);
      pre.factor(0);
      const r = randomVector(st, 1);
      const hx = new Float64Array(r.length);
      const ws = createWorkspace(st);
      for (const solve of ['apply', 'applySgs'] as const) {
        const x =
          solve === 'apply'
            ? pre.apply(r, new Float64Array(r.length))
            : pre.applySgs(st, r, new Float64Array(r.length));
        fitHessVec(data, st, w, ws, x, hx);
        let err = 0;
        for (let i = 0; i < r.length; i++)
          err = Math.max(err, Math.abs((hx[i] as number) - (r[i] as number)));
        expect(err).toBeLessThan(1e-6 * Math.max(...r.map(Math.abs)));
      }
    });
  }

  it.each([
    ['uniform', 0, false],
    ['lever', 2, false],
    ['varying', 0, true],
  ] as const)(
    'applies a symmetric positive definite block Gauss-Seidel preconditioner (every term on, %s jerk)',
    (_, jerkLever, varying) => {
      const { st, pre } = problem('wolf', { jerkLever }, varying);
      pre.factor(1e-3);
      const a = randomVector(st, 2);
      const b = randomVector(st, 3);
      const ma = pre.applySgs(st, a, new Float64Array(a.length));
      const mb = pre.applySgs(st, b, new Float64Array(b.length));
      expect(dot(a, mb)).toBeCloseTo(dot(b, ma), 6);
      expect(dot(a, ma)).toBeGreaterThan(0);
      expect(dot(b, mb)).toBeGreaterThan(0);
    },
  );

  it('gives the same result when the output aliases the input', () => {
    const { st, pre } = problem('wolf', {});
    pre.factor(1e-3);
    const r = randomVector(st, 4);
    const sgs = pre.applySgs(st, r, new Float64Array(r.length));
    const jacobi = pre.apply(r, new Float64Array(r.length));
    const inPlace = Float64Array.from(r);
    pre.applySgs(st, inPlace, inPlace);
    expect(Array.from(inPlace)).toEqual(Array.from(sgs));
    const inPlaceJacobi = Float64Array.from(r);
    pre.apply(inPlaceJacobi, inPlaceJacobi);
    expect(Array.from(inPlaceJacobi)).toEqual(Array.from(jacobi));
  });
});

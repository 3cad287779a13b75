import { gaitMotion, syntheticMotion } from '@mocap/solver';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

describe('gaitMotion', () => {
  const { model, info } = loadCreature('wolf');
  const b = model.bones.length;
  const k = model.keypoints.length;
  const m = gaitMotion(model, info, { frames: 90, seed: 3 });

  it('starts at the rest pose and ramps in: frame 0 is all zero angles, identity root', () => {
    expect(Array.from(m.euler.subarray(0, 3 * b)).every((v) => v === 0)).toBe(true);
    expect(Array.from(m.rootQuat.subarray(0, 4))).toEqual([1, 0, 0, 0]);
    // frame 1 moves less than a frame past the ramp
    const step = (f: number) => {
      let s = 0;
      for (let i = 0; i < 3 * b; i++) s += Math.abs(m.euler[(f + 1) * 3 * b + i]! - m.euler[f * 3 * b + i]!);
      return s;
    };
    expect(step(0)).toBeLessThan(step(40));
  });

  it('stays inside every limit and puts the lowest foot on the ground each frame', () => {
    for (let f = 0; f < m.frames; f++) {
      for (let i = 1; i < b; i++) {
        for (let a = 0; a < 3; a++) {
          const v = m.euler[(f * b + i) * 3 + a]!;
          expect(v).toBeGreaterThanOrEqual(model.limits[i * 6 + 2 * a]! - 1e-12);
          expect(v).toBeLessThanOrEqual(model.limits[i * 6 + 2 * a + 1]! + 1e-12);
        }
      }
      const low = Math.min(...info.feet.map((j) => m.joints[(f * k + j) * 3 + 2]!));
      expect(Math.abs(low)).toBeLessThan(1e-9);
    }
  });

  it('swings the legs on their flexion axes, and moves less than the synthetic exam motion', () => {
    const leg = model.bones.indexOf('fupper.L');
    const xs = Array.from({ length: m.frames }, (_, f) => m.euler[(f * b + leg) * 3]!);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan((20 * Math.PI) / 180);
    const wild = syntheticMotion(model, info, { frames: 90, seed: 3 });
    const spread = (e: Float64Array) => {
      let s = 0;
      for (let f = 10; f < 90; f++) for (let i = 3; i < 3 * b; i++) s += Math.abs(e[f * 3 * b + i]!);
      return s;
    };
    expect(spread(m.euler)).toBeLessThan(0.6 * spread(wild.euler));
  });

  it('is seeded: the same seed gives the same motion, another seed another', () => {
    const again = gaitMotion(model, info, { frames: 90, seed: 3 });
    expect(again.euler).toEqual(m.euler);
    expect(gaitMotion(model, info, { frames: 90, seed: 4 }).euler).not.toEqual(m.euler);
    expect(() => gaitMotion(model, info, { frames: 0, seed: 1 })).toThrow(
      'gaitMotion: Expected frames >= 1, got 0.',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { jerkScales } from '../src/jerk-scales.js';
import { loadCreature } from './helpers.js';

describe('jerkScales', () => {
  const { model } = loadCreature('wolf');
  const at = (s: Float64Array, bone: string) => s[model.bones.indexOf(bone)] as number;

  it('is one weight for every bone at power 0', () => {
    expect(Array.from(jerkScales(model, 0)).every((v) => v === 1)).toBe(true);
  });

  it('eases the prior on short levers and never raises it (power 2)', () => {
    const s = jerkScales(model, 2);
    expect(Array.from(s).every((v) => v > 0 && v <= 1)).toBe(true);
    // A toe moves only its tip; the upper leg moves the whole leg below it.
    expect(at(s, 'ftoe.L')).toBeLessThan(at(s, 'fupper.L'));
    expect(at(s, 'htoe.R')).toBeLessThan(at(s, 'hlower.R'));
    expect(at(s, 'ftoe.L')).toBeLessThan(0.5);
    expect(at(s, 'hupper.L')).toBe(1);
    // Mirror bones get the same weight.
    expect(at(s, 'fpaw.L')).toBeCloseTo(at(s, 'fpaw.R'), 6);
  });

  it('follows the power: power 1 lies between power 0 and power 2', () => {
    const s1 = jerkScales(model, 1);
    const s2 = jerkScales(model, 2);
    for (let i = 1; i < model.bones.length; i++) {
      expect(s1[i] as number).toBeGreaterThanOrEqual((s2[i] as number) - 1e-12);
      expect(s1[i] as number).toBeLessThanOrEqual(1);
    }
  });
});

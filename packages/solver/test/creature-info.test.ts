import { boneMirror } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

describe('creatureInfo', () => {
  it('resolves the wolf feet, left/right pairs and swap units from creature.json', () => {
    const { model, info } = loadCreature('wolf');
    const name = (j: number) => model.keypoints[j]!.name;
    expect(info.feet.map(name).sort()).toEqual(
      ['fpaw.L', 'fpaw.R', 'ftoe.L', 'ftoe.R', 'hpaw.L', 'hpaw.R', 'htoe.L', 'htoe.R'].sort(),
    );
    expect(info.pairs.map(([a, b]) => [name(a), name(b)])).toContainEqual(['ftoe.L', 'ftoe.R']);
    expect(info.swapUnits).toHaveLength(2);
    expect(Object.keys(info.groups).sort()).toEqual([
      'body',
      'front_left',
      'front_right',
      'hind_left',
      'hind_right',
    ]);
  });

  it('gives the dragon wings their own swap unit', () => {
    const { info } = loadCreature('dragon');
    expect(info.swapUnits).toHaveLength(3);
  });

  it('derives a mirror map from side markers when none is given', () => {
    const m = boneMirror([
      'arm.L',
      'arm.R',
      'leg_l',
      'leg_r',
      'LeftEye',
      'RightEye',
      'spine',
      'L_ear',
      'R_ear',
    ]);
    expect(m.get('arm.R')).toBe('arm.L');
    expect(m.get('leg_l')).toBe('leg_r');
    expect(m.get('LeftEye')).toBe('RightEye');
    expect(m.get('L_ear')).toBe('R_ear');
    expect(m.has('spine')).toBe(false);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileError, RigInfo, readJsonFile } from '@mocap/layout';
import { rigModelFromRigInfo } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

const I = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
];
const lim = [
  [-10, 10],
  [-10, 10],
  [-10, 10],
];
/** A rig_info.json bone: a unit bone along Y at the origin, +-10 degrees on every axis. */
const bone = (name: string, parent: string | null) => ({
  name,
  parent,
  head: [0, 0, 0],
  tail: [0, 1, 0],
  roll: 0,
  length: 1,
  matrix_local: I,
  limits_deg: lim,
});

describe('rig models', () => {
  it('gives the wolf every joint as a keypoint, root first, limits in radians', () => {
    const { model, rig } = loadCreature('wolf');
    expect(model.keypoints).toHaveLength(Object.keys(rig.joints).length);
    expect(model.parent[0]).toBe(-1);
    const b = model.bones.indexOf('fupper.L');
    expect(model.limits[b * 6]).toBeCloseTo((-45 * Math.PI) / 180, 12);
  });

  it('refuses a rig_info.json whose parent is missing, naming the file and field', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'solver-'));
    const file = path.join(dir, 'rig_info.json');
    writeFileSync(
      file,
      JSON.stringify({
        root: 'hips',
        bones: [bone('hips', null), bone('spine', 'spine9')],
        keypoints: [{ name: 'a', bone: 'hips', end: 'head' }],
      }),
    );
    await expect(readJsonFile('solve', file, RigInfo)).rejects.toThrow(
      /rig_info\.json: bones\[1\]\.parent: "spine9" is not a bone/,
    );
  });

  it('refuses a second root in rig_info.json', () => {
    const info = RigInfo.parse({
      root: 'a',
      bones: [bone('a', null), bone('b', null)],
      keypoints: [{ name: 'x', bone: 'a', end: 'tail' }],
    });
    expect(() => rigModelFromRigInfo(info, 'r.json')).toThrow(FileError);
    expect(() => rigModelFromRigInfo(info, 'r.json')).toThrow(/r\.json: bones\[1\]\.parent/);
  });
});

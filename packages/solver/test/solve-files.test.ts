import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MotionJson, writeDetections } from '@mocap/layout';
import { solveFiles, syntheticDetections, syntheticMotion } from '@mocap/solver';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

describe('solveFiles', () => {
  it('turns det.npz + rig.json + creature into a valid motion.json on disk', async () => {
    const { dir, model, layout, info } = loadCreature('wolf');
    const tmp = mkdtempSync(path.join(tmpdir(), 'solve-'));
    const truth = syntheticMotion(model, info, { frames: 12, seed: 9 });
    const names = model.keypoints.map((k) => k.name);
    const det = syntheticDetections(truth.joints, names, 30, layout, info, { noisePx: 1, seed: 9 });
    await writeDetections(path.join(tmp, 'det.npz'), det);
    const motion = await solveFiles({
      det: path.join(tmp, 'det.npz'),
      rig: path.join(dir, 'rig.json'),
      creature: dir,
      out: path.join(tmp, 'out', 'motion.json'),
    });
    const onDisk = MotionJson.parse(JSON.parse(readFileSync(path.join(tmp, 'out', 'motion.json'), 'utf8')));
    expect(onDisk.trans).toHaveLength(12);
    expect(onDisk.bones).toEqual(model.bones);
    expect(motion.reproj_px.mean).toBeLessThan(3);
  });

  it('takes det.npz uv as layout px: a non-identity calib (informational) solves to the same joints', async () => {
    const { dir, model, layout, info } = loadCreature('wolf');
    const tmp = mkdtempSync(path.join(tmpdir(), 'solve-'));
    const truth = syntheticMotion(model, info, { frames: 12, seed: 4 });
    const names = model.keypoints.map((k) => k.name);
    const det = syntheticDetections(truth.joints, names, 30, layout, info, { noisePx: 1, seed: 4 });
    const solve = async (calib: number[], name: string) => {
      await writeDetections(path.join(tmp, `${name}.npz`), { ...det, calib: Float64Array.from(calib) });
      return solveFiles({
        det: path.join(tmp, `${name}.npz`),
        rig: path.join(dir, 'rig.json'),
        creature: dir,
        out: path.join(tmp, `${name}.json`),
      });
    };
    const identity = await solve([1, 1, 0, 0], 'identity');
    // A clip scaled 0.95 and shifted onto the layout: detect wrote layout px and records this.
    const scaled = await solve([0.95, 0.95, 12, -7], 'scaled');
    expect(scaled.joints).toEqual(identity.joints);
    expect(scaled.reproj_px.mean).toBeLessThan(3);
  });

  it('names the rig file and field of a bad rig', async () => {
    const tmp = mkdtempSync(path.join(tmpdir(), 'solve-'));
    const rig = path.join(tmp, 'rig.json');
    writeFileSync(
      rig,
      JSON.stringify({ joints: { a: [0, 0, 0], b: [0, 1, 0] }, bones: [['x', 'a', 'b', 'nope']] }),
    );
    await expect(
      solveFiles({ det: path.join(tmp, 'det.npz'), rig, out: path.join(tmp, 'm.json') }),
    ).rejects.toThrow(/rig\.json: bones\[0\]\.\[?3\]?.*"nope"|rig\.json: bones\[0\]\[3\]/);
  });
});

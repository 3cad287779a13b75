import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MotionJson, writeDetections } from '@mocap/layout';
import { solveContext, solveDetections, syntheticDetections, syntheticMotion } from '@mocap/solver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

describe('solveContext + solveDetections', () => {
  let tmp = '';
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(tmpdir(), 'solver-solve-detections-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it("reads an unrigged creature's rig.json and fits det.npz to motion.json on disk, returning the joints", async () => {
    const { dir: bundled, model } = loadCreature('wolf');
    // A copy without runs/: the bundled wolf may have been rigged by an earlier `mocap rig`.
    const dir = path.join(tmp, 'wolf');
    await mkdir(dir, { recursive: true });
    for (const f of ['creature.json', 'rig.json']) await copyFile(path.join(bundled, f), path.join(dir, f));
    const ctx = await solveContext('test', dir);
    expect(ctx.creature.name).toBe('wolf');
    expect(ctx.model.restHead).toEqual(model.restHead);
    const truth = syntheticMotion(ctx.model, ctx.info, { frames: 12, seed: 5 });
    const names = ctx.model.keypoints.map((k) => k.name);
    const det = syntheticDetections(truth.joints, names, 30, ctx.creature.layout, ctx.info, {
      noisePx: 1,
      seed: 5,
    });
    await writeDetections(path.join(tmp, 'det.npz'), det);
    const out = path.join(tmp, 'out', 'motion.json');
    const r = await solveDetections(ctx, path.join(tmp, 'det.npz'), out);
    expect(MotionJson.parse(JSON.parse(await readFile(out, 'utf8')))).toEqual(r.motion);
    expect(r.joints).toHaveLength(truth.joints.length);
    expect(r.seconds).toBeGreaterThan(0);
    let e = 0;
    for (let i = 0; i < r.joints.length; i += 3)
      e += Math.hypot(
        (r.joints[i] as number) - (truth.joints[i] as number),
        (r.joints[i + 1] as number) - (truth.joints[i + 1] as number),
        (r.joints[i + 2] as number) - (truth.joints[i + 2] as number),
      );
    expect(e / (r.joints.length / 3)).toBeLessThan(0.02);
  });

  it('names the operation when no creature is given', async () => {
    await expect(solveContext('capture', undefined, {})).rejects.toThrow(
      'capture: expected --creature DIR (or MOCAP_CREATURE), got neither.',
    );
  });
});

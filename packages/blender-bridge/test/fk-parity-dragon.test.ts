import { rm } from 'node:fs/promises';
import path from 'node:path';
import { applyMotion, buildRig, JointsJson, prepMesh } from '@mocap/blender-bridge';
import { atomicWriteJson, readJsonFile } from '@mocap/layout';
import { copyCreature } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { randomMotion } from './helpers/creature.js';
import { fkParity } from './helpers/fk-parity.js';

describe('dragon: FK parity with Blender', () => {
  it("the solver's FK from rig_info.json matches joints.json within 0.1 mm at every joint and frame", async () => {
    const dir = await copyCreature('dragon');
    await prepMesh({ creature: dir });
    const { info } = await buildRig({ creature: dir });
    const motion = randomMotion(info, 8, 5);
    const file = path.join(dir, 'runs', 'capture', 'parity', 'motion.json');
    await atomicWriteJson(file, motion);
    const r = await applyMotion({
      creature: dir,
      motion: file,
      renders: [],
      formats: { glb: false, bvh: false, fbx: false },
    });
    const joints = await readJsonFile('test', r.joints, JointsJson);
    const { worst, compared } = fkParity(info, motion, joints);
    expect(compared).toBe(8 * info.keypoints.length);
    expect(worst).toBeLessThan(1e-4);
    await rm(dir, { recursive: true, force: true });
  }, 180_000);
});

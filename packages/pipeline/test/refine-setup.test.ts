import { rm } from 'node:fs/promises';
import path from 'node:path';
import { refineSetup } from '@mocap/pipeline';
import { solveContext } from '@mocap/solver';
import { copyCreature } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rigged case (glTF export, keypoint lengths, paint) is covered by render-clip.test.ts.
describe('refineSetup on a creature that is not rigged', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyCreature('wolf', {
      files: ['creature.json', 'rig.json'],
      prefix: 'pipeline-refine-setup-',
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('refines nothing when off or auto', async () => {
    const ctx = await solveContext('test', dir);
    expect(await refineSetup('test', ctx, dir, 'off')).toBeUndefined();
    expect(await refineSetup('test', ctx, dir, 'auto')).toBeUndefined();
  });

  it('explains that on needs the rigged creature', async () => {
    const ctx = await solveContext('test', dir);
    const blend = path.join(dir, 'runs', 'rigged', 'rigged.blend');
    await expect(refineSetup('detect', ctx, dir, 'on')).rejects.toThrow(
      `detect: ${blend}: refinement needs the rigged creature (its skinned mesh); run \`mocap prep\` then \`mocap rig\` first, or pass --no-refine.`,
    );
  });
});

import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { refineSetup } from '@mocap/pipeline';
import { solveContext } from '@mocap/solver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WOLF = fileURLToPath(new URL('../../../creatures/wolf', import.meta.url));

// The rigged case (glTF export, keypoint lengths, paint) is covered by render-clip.test.ts.
describe('refineSetup on a creature that is not rigged', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-refine-setup-'));
    for (const f of ['creature.json', 'rig.json']) await copyFile(path.join(WOLF, f), path.join(dir, f));
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

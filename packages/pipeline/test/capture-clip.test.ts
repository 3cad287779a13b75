import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { captureClip } from '@mocap/pipeline';
import { copyCreature } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole chain (real Blender, a tiny trained reader) runs in packages/cli/test/commands/capture.test.ts.
describe('captureClip: what it checks before it starts', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyCreature('wolf', { files: ['creature.json', 'rig.json'], prefix: 'pipeline-capture-' });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names a clip that is not a video', async () => {
    const text = path.join(dir, 'notes.mp4');
    await writeFile(text, 'not a video\n');
    await expect(captureClip({ clip: text, creature: dir })).rejects.toThrow(
      `probeVideo: ${text}: not a video`,
    );
  });
});

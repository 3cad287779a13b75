import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureClip } from '@mocap/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WOLF = fileURLToPath(new URL('../../../creatures/wolf', import.meta.url));

// The whole chain (real Blender, a tiny trained reader) runs in packages/cli/test/commands/capture.test.ts.
describe('captureClip: what it checks before it starts', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-capture-'));
    for (const f of ['creature.json', 'rig.json']) await copyFile(path.join(WOLF, f), path.join(dir, f));
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

import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderExam } from '@mocap/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WOLF = fileURLToPath(new URL('../../../creatures/wolf', import.meta.url));

// The rendered exam end to end (real Blender, a tiny trained reader) runs in packages/cli/test/commands/capture.test.ts.
describe('renderExam: what it checks before it renders', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-render-exam-'));
    for (const f of ['creature.json', 'rig.json']) await copyFile(path.join(WOLF, f), path.join(dir, f));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names a missing reader and the commands that train one', async () => {
    const none = path.join(dir, 'no-reader');
    await expect(renderExam({ creature: dir, frames: 4, seed: 1, reader: none })).rejects.toThrow(
      `exam: ${path.join(none, 'model.json')}: no trained reader there; run \`mocap dataset\` then \`mocap train\` first`,
    );
  });

  it('names a creature that is not rigged', async () => {
    const blend = path.join(dir, 'runs', 'rigged', 'rigged.blend');
    await expect(
      renderExam({ creature: dir, frames: 4, seed: 1, reader: path.join(WOLF, 'reader') }),
    ).rejects.toThrow(`exam: ${blend}: missing; run \`mocap prep\` then \`mocap rig\` first.`);
  });
});

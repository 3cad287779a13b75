import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requireRigged } from '@mocap/pipeline/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('requireRigged', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-require-rigged-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names the missing rigged.blend and the commands that make it', () => {
    const blend = path.join(dir, 'runs', 'rigged', 'rigged.blend');
    expect(() => requireRigged('exam', dir)).toThrow(
      `exam: ${blend}: missing; run \`mocap prep\` then \`mocap rig\` first.`,
    );
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { requireReader } from '@mocap/pipeline/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('requireReader', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-require-reader-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names the missing model.json and the commands that make one', () => {
    expect(() => requireReader('capture', dir)).toThrow(
      `capture: ${path.join(dir, 'model.json')}: no trained reader there; run \`mocap dataset\` then \`mocap train\` first (or pass --reader DIR).`,
    );
  });

  it('passes a folder holding model.json', async () => {
    await writeFile(path.join(dir, 'model.json'), '{}');
    expect(() => requireReader('capture', dir)).not.toThrow();
  });
});

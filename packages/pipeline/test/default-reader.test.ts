import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultReader } from '@mocap/pipeline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

describe('defaultReader', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pipeline-default-reader-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const model = async (folder: string) => {
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'model.json'), '{}');
  };

  it('prefers the reader trained under runs/reader', async () => {
    await model(path.join(dir, 'reader'));
    await model(path.join(dir, 'runs', 'reader'));
    expect(defaultReader(dir)).toBe(path.join(dir, 'runs', 'reader'));
  });

  it("falls back to the creature's shipped reader", async () => {
    await model(path.join(dir, 'reader'));
    expect(defaultReader(dir)).toBe(path.join(dir, 'reader'));
  });

  it('names runs/reader when there is none, so the error points at where training writes', () => {
    expect(defaultReader(dir)).toBe(path.join(dir, 'runs', 'reader'));
  });
});

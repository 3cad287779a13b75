import { readFile, rm } from 'node:fs/promises';
import { renderDataset } from '@mocap/blender-bridge';
import { describe, expect, it } from 'vitest';
import { pipelineSuite } from './helpers/pipeline-suite.js';

const current = pipelineSuite('fox', { length: 1.0 });

describe('fox: dataset', () => {
  it('resumes an interrupted dataset and redraws a sample identically', async () => {
    const run = current();
    const ds = run.dataset!;
    const meta = ds.metas[5]!;
    const before = await readFile(meta, 'utf8');
    await rm(meta);
    const again = await renderDataset({ creature: run.dir, count: 8, seed: 3 });
    expect(again.skipped).toBe(7);
    expect(again.rendered).toBe(1);
    expect(await readFile(meta, 'utf8')).toBe(before);
  }, 120_000);
});

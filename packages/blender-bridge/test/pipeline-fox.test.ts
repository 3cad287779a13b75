import { copyFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { buildRig, renderDataset } from '@mocap/blender-bridge';
import { BlenderError } from '@mocap/blender-bridge/internal';
import { creaturePaths } from '@mocap/layout';
import { PNG } from 'pngjs';
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

  it('continues a run that was killed mid-way: whole samples kept, no temporary files', async () => {
    const run = current();
    const out = path.join(run.dir, 'runs', 'dataset-killed');
    const ac = new AbortController();
    const e = await renderDataset({
      creature: run.dir,
      count: 6,
      seed: 9,
      out,
      signal: ac.signal,
      onProgress: (p) => {
        if (p.done >= 2) ac.abort();
      },
    }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(BlenderError);
    expect((e as BlenderError).kind).toBe('cancelled');
    const names = await readdir(out);
    expect(names.filter((n) => n.includes('.tmp-'))).toEqual([]);
    const metas = names.filter((n) => n.endsWith('_meta.json'));
    expect(metas.length).toBeGreaterThanOrEqual(2);
    expect(metas.length).toBeLessThan(6);
    for (const m of metas) {
      expect(names).toContain(m.replace('_meta.json', '_front.png'));
      expect(names).toContain(m.replace('_meta.json', '_side.png'));
    }
    const again = await renderDataset({ creature: run.dir, count: 6, seed: 9, out });
    expect(again.skipped).toBe(metas.length);
    expect(again.rendered).toBe(6 - metas.length);
  }, 120_000);

  it('renders transparent samples (no studio) on request', async () => {
    const run = current();
    const out = path.join(run.dir, 'runs', 'dataset-rgba');
    const r = await renderDataset({ creature: run.dir, count: 2, seed: 4, out, transparent: true });
    expect(r.rendered).toBe(2);
    const png = PNG.sync.read(await readFile(path.join(out, '00001_side.png')));
    expect(png.data[3]).toBe(0);
    let opaque = 0;
    for (let i = 3; i < png.data.length; i += 4) if (png.data[i] === 255) opaque++;
    expect(opaque).toBeGreaterThan(1000);
  }, 120_000);

  it('skins with nearest-bone weights on request and says so in rig_info.json', async () => {
    const run = current();
    const runs = path.join(run.dir, 'runs-nearest');
    const p = creaturePaths(run.dir, runs);
    await mkdir(path.dirname(p.staticBlend), { recursive: true });
    await copyFile(creaturePaths(run.dir).staticBlend, p.staticBlend);
    const r = await buildRig({ creature: run.dir, runs, weights: 'nearest' });
    expect(r.info.weights).toBe('nearest');
    expect(JSON.parse(await readFile(p.rigInfo, 'utf8')).weights).toBe('nearest');
    expect(r.painted.front_left).toBeGreaterThan(20);
  }, 120_000);
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Layout } from '@mocap/layout';
import { loadDataset, writeBlobDataset } from '@mocap/reader';
import { QUARTER_LAYOUT } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const layout = Layout.parse(QUARTER_LAYOUT);

describe('loadDataset', () => {
  const root = mkdtemp(path.join(tmpdir(), 'reader-ds-'));
  let dir = '';
  beforeAll(async () => {
    dir = path.join(await root, 'ok');
    await writeBlobDataset(dir, { samples: 3, seed: 2, layout, radius: 10 });
  });
  afterAll(async () => rm(await root, { recursive: true, force: true }));

  it('reads every sample as two views at the input size, with a backdrop mask and true joints', async () => {
    const ds = await loadDataset(dir, { layout, inputSize: 64, heatmapSize: 16 });
    expect(ds.samples).toBe(3);
    expect(ds.names).toEqual(['head', 'tail', 'lfoot', 'rfoot']);
    expect(ds.items.map((i) => `${i.sample}${i.view}`)).toEqual([
      '0front',
      '0side',
      '1front',
      '1side',
      '2front',
      '2side',
    ]);
    for (const item of ds.items) {
      expect(item.pixels).toHaveLength(64 * 64 * 3);
      const bg = item.background.reduce((a, b) => a + b, 0) / item.background.length;
      expect(bg).toBeGreaterThan(0.6);
      expect(bg).toBeLessThan(1);
      expect(item.transform.inputSize).toBe(64);
      // Each joint's disc lands on a non-backdrop input pixel.
      for (let j = 0; j < 4; j++) {
        const k = item.transform.inputSize / item.transform.side;
        const x = Math.floor((item.uv[2 * j]! - item.transform.x0 + item.transform.padLeft) * k);
        const y = Math.floor((item.uv[2 * j + 1]! + item.transform.padTop) * k);
        if (x >= 0 && x < 64 && y >= 0 && y < 64) expect(item.background[y * 64 + x]).toBe(0);
      }
    }
  });

  it('names the file and field of a bad sample', async () => {
    const bad = path.join(await root, 'bad');
    await writeBlobDataset(bad, { samples: 1, layout });
    await writeFile(path.join(bad, '1_meta.json'), JSON.stringify({ index: 1, names: ['a'] }));
    await expect(loadDataset(bad, { layout })).rejects.toThrow(/loadDataset: .*1_meta\.json: seed/);
    await expect(loadDataset(path.join(await root, 'nope'))).rejects.toThrow(
      /cannot read the dataset folder/,
    );
    // Images of another layout's size.
    await expect(loadDataset(dir)).rejects.toThrow(/the front view is 105 x 180, the layout wants 420 x 720/);
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createReader, saveReader } from '@mocap/reader';
import { afterAll, describe, expect, it } from 'vitest';
import { initFromReader, readerArchitecture } from '../src/init-from-reader.js';

const arch = {
  inputSize: 32,
  backbone: { kind: 'cnn' as const, widths: [4, 8] },
  head: { channels: 4, upsample: 1 },
};

describe('initFromReader', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("copies the shared weights and same-named joints' channels; a new joint keeps fresh weights and the mean bias", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'init-reader-'));
    dirs.push(dir);
    const src = await createReader({ ...arch, joints: ['a', 'b', 'c'], seed: 1 });
    // Distinct biases, so a channel's origin is visible.
    src.params.assign('head.out.bias', [3], Float32Array.from([0.1, 0.2, 0.6]), 'test');
    await saveReader(src, dir);
    expect(await readerArchitecture(dir)).toEqual({ ...arch, backbone: { ...arch.backbone, skips: false } });
    const dst = await createReader({ ...arch, joints: ['c', 'x', 'a'], seed: 2 });
    const freshX = Array.from(dst.params.get('head.out.weight').dataSync()).filter((_, i) => i % 3 === 1);
    const report = await initFromReader(dst, dir);
    expect(report.matched).toEqual(['c', 'a']);
    expect(report.fresh).toEqual(['x']);
    expect(report.copied).toBe(src.params.vars.size - 2);
    for (const [name, v] of src.params.vars) {
      if (name.startsWith('head.out.')) continue;
      expect(Array.from(dst.params.get(name).dataSync())).toEqual(Array.from(v.dataSync()));
    }
    const sw = src.params.get('head.out.weight').dataSync();
    const dw = dst.params.get('head.out.weight').dataSync();
    for (let c = 0; c < 4; c++) {
      expect(dw[c * 3 + 0]).toBe(sw[c * 3 + 2]); // c <- c
      expect(dw[c * 3 + 2]).toBe(sw[c * 3 + 0]); // a <- a
      expect(dw[c * 3 + 1]).toBe(freshX[c]); // x keeps its own
    }
    const db = Array.from(dst.params.get('head.out.bias').dataSync());
    expect(db[0]).toBeCloseTo(0.6, 6);
    expect(db[1]).toBeCloseTo(0.3, 6);
    expect(db[2]).toBeCloseTo(0.1, 6);
    src.dispose();
    dst.dispose();
  });

  it('starts a joint without a same-named source from the joint the map names; a name wins over the map', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'init-reader-'));
    dirs.push(dir);
    const src = await createReader({ ...arch, joints: ['a', 'b', 'c'], seed: 1 });
    src.params.assign('head.out.bias', [3], Float32Array.from([0.1, 0.2, 0.6]), 'test');
    await saveReader(src, dir);
    const dst = await createReader({ ...arch, joints: ['y', 'a', 'x', 'z'], seed: 2 });
    // a is matched by name (its map entry is not used); z's target is not in the source
    const report = await initFromReader(dst, dir, { map: { x: 'c', y: 'b', a: 'c', z: 'nope' } });
    expect(report.matched).toEqual(['a']);
    expect(report.mapped).toEqual({ y: 'b', x: 'c' });
    expect(report.fresh).toEqual(['z']);
    const sw = src.params.get('head.out.weight').dataSync();
    const dw = dst.params.get('head.out.weight').dataSync();
    for (let c = 0; c < 4; c++) {
      expect(dw[c * 4 + 0]).toBe(sw[c * 3 + 1]); // y <- b
      expect(dw[c * 4 + 1]).toBe(sw[c * 3 + 0]); // a <- a
      expect(dw[c * 4 + 2]).toBe(sw[c * 3 + 2]); // x <- c
    }
    const db = Array.from(dst.params.get('head.out.bias').dataSync());
    expect(db[0]).toBeCloseTo(0.2, 6);
    expect(db[1]).toBeCloseTo(0.1, 6);
    expect(db[2]).toBeCloseTo(0.6, 6);
    expect(db[3]).toBeCloseTo(0.3, 6);
    src.dispose();
    dst.dispose();
  });

  it('refuses a source of another architecture, naming the field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'init-reader-'));
    dirs.push(dir);
    const src = await createReader({ ...arch, joints: ['a'] });
    await saveReader(src, dir);
    src.dispose();
    const dst = await createReader({ ...arch, inputSize: 64, joints: ['a'] });
    await expect(initFromReader(dst, dir)).rejects.toThrow(
      /model\.json: config\.inputSize is 32, this run's is 64/,
    );
    dst.dispose();
  });
});

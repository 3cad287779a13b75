import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileError } from '@mocap/layout';
import { decodePng, type RgbaImage, readPng, writePng } from '@mocap/media';
import { encodePng, readPngRgba, rgbaToRgb, rgbToRgba, writePngRgba } from '@mocap/media/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticFrame, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

describe('PNG', () => {
  it('round-trips RGB exactly through a file', async () => {
    const img = syntheticFrame(3);
    img.data[7] = 1; // an odd value, so a lossy path would show
    const file = path.join(dir, 'sub', 'frame.png');
    await writePng(file, img);
    const back = await readPng(file);
    expect(back.width).toBe(img.width);
    expect(back.height).toBe(img.height);
    expect(Buffer.from(back.data).equals(Buffer.from(img.data))).toBe(true);
    // It is a real PNG: the signature and an RGB (colour type 2) IHDR.
    const bytes = await readFile(file);
    expect([...bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    expect(bytes[25]).toBe(2);
  });

  it('round-trips RGBA and composites alpha over a background', async () => {
    const rgba: RgbaImage = { width: 2, height: 1, data: Uint8Array.of(200, 100, 0, 255, 200, 100, 0, 0) };
    const file = path.join(dir, 'alpha.png');
    await writePngRgba(file, rgba);
    expect([...(await readPngRgba(file)).data]).toEqual([...rgba.data]);
    expect([...(await readPng(file, [10, 20, 30])).data]).toEqual([200, 100, 0, 10, 20, 30]);
    expect([...rgbaToRgb({ width: 1, height: 1, data: Uint8Array.of(255, 0, 0, 128) }).data]).toEqual([
      128, 0, 0,
    ]);
    expect([...rgbToRgba(decodePng(encodePng(syntheticFrame(0)))).data.subarray(0, 4)]).toEqual([
      128, 130, 134, 255,
    ]);
  });

  it('names a missing or corrupt file', async () => {
    const missing = path.join(dir, 'missing.png');
    await expect(readPng(missing)).rejects.toThrow(`readPng: ${missing}: no such file.`);
    const bad = path.join(dir, 'bad.png');
    await writeFile(bad, 'not a png');
    const err = await readPng(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileError);
    expect((err as Error).message).toMatch(`readPng: ${bad}: not a valid PNG`);
  });

  it('rejects an image whose data does not match its size', () => {
    expect(() => encodePng({ width: 2, height: 2, data: new Uint8Array(5) })).toThrow(
      'writePng: image: expected 2 x 2 x 3 = 12 bytes of RGB, got 5.',
    );
  });
});

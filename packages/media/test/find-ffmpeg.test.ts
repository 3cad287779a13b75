import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createImage, encodeVideo, findFfmpeg, probeVideo } from '@mocap/media';
import { findFfprobe } from '@mocap/media/internal';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

const saved = { FFMPEG: process.env.FFMPEG, FFPROBE: process.env.FFPROBE, PATH: process.env.PATH };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('findFfmpeg and findFfprobe', () => {
  it('find the system binaries on PATH', () => {
    delete process.env.FFMPEG;
    delete process.env.FFPROBE;
    expect(path.basename(findFfmpeg())).toBe('ffmpeg');
    expect(path.basename(findFfprobe())).toBe('ffprobe');
  });

  it('take FFMPEG / FFPROBE first, and say when one is not an executable', async () => {
    process.env.FFPROBE = findFfprobe();
    expect(findFfprobe()).toBe(process.env.FFPROBE);
    const bad = path.join(dir, 'no-ffmpeg');
    process.env.FFMPEG = bad;
    expect(() => findFfmpeg()).toThrow(`ffmpeg: FFMPEG=${bad} is not an executable file.`);
    await expect(encodeVideo(path.join(dir, 'x.mp4'), [createImage(2, 2)], { fps: 1 })).rejects.toThrow(
      `ffmpeg: FFMPEG=${bad} is not an executable file.`,
    );
  });

  it('say how to install them when they are nowhere on PATH', async () => {
    delete process.env.FFMPEG;
    delete process.env.FFPROBE;
    process.env.PATH = dir;
    expect(() => findFfmpeg()).toThrow(/ffmpeg: not found: set FFMPEG .* apt-get install ffmpeg/);
    expect(() => findFfprobe()).toThrow(/ffprobe: not found: set FFPROBE .* apt-get install ffmpeg/);
    const file = path.join(dir, 'any.mp4');
    await writeFile(file, 'x');
    await expect(probeVideo(file)).rejects.toThrow(/ffprobe: not found/);
  });
});

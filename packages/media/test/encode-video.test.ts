import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createImage, decodeVideo, encodeVideo, probeVideo, type RgbImage } from '@mocap/media';
import { FfmpegError } from '@mocap/media/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP, RED_SIZE, redAt, redCentroid, syntheticFrame, syntheticFrames, tempDir } from './helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterAll(() => cleanup());

describe('encodeVideo', () => {
  it('encodes frames that decode back with the same content, order and count', async () => {
    const file = path.join(dir, 'clip.mp4');
    const n = await encodeVideo(file, syntheticFrames(), { fps: CLIP.fps, crf: 4, preset: 'veryfast' });
    expect(n).toBe(CLIP.frames);
    const info = await probeVideo(file);
    expect(info).toMatchObject({
      width: CLIP.width,
      height: CLIP.height,
      frames: CLIP.frames,
      codec: 'h264',
    });
    let t = 0;
    for await (const frame of decodeVideo(file)) {
      const [x, y] = redAt(t);
      const c = redCentroid(frame);
      expect(c?.[0]).toBeCloseTo(x + RED_SIZE / 2, 0);
      expect(c?.[1]).toBeCloseTo(y + RED_SIZE / 2, 0);
      const want = syntheticFrame(t);
      // Wall far from the squares: x264 at crf 4 keeps it within a few levels.
      for (const [px, py] of [
        [2, 90],
        [150, 4],
      ] as const) {
        const i = (py * CLIP.width + px) * 3;
        for (let k = 0; k < 3; k++)
          expect(Math.abs(frame.data[i + k]! - want.data[i + k]!)).toBeLessThanOrEqual(3);
      }
      t++;
    }
    expect(t).toBe(CLIP.frames);
    // Only the final file remains: the temporary one was renamed.
    expect(await readdir(dir)).toEqual(['clip.mp4']);
  });

  it('takes an async iterable and a rational frame rate', async () => {
    const file = path.join(dir, 'ntsc.mp4');
    async function* frames(): AsyncGenerator<RgbImage> {
      for (let t = 0; t < 6; t++) yield syntheticFrame(t);
    }
    await encodeVideo(file, frames(), { fps: '30000/1001', preset: 'ultrafast' });
    const info = await probeVideo(file);
    expect(info.fpsRational).toEqual({ num: 30000, den: 1001 });
    expect(info.fps).toBeCloseTo(29.97, 2);
    expect(info.frames).toBe(6);
  });

  it('rejects frames of another size, odd sizes and no frames, leaving no file', async () => {
    const file = path.join(dir, 'bad.mp4');
    const mixed = [createImage(32, 32), createImage(32, 32), createImage(34, 32)];
    await expect(encodeVideo(file, mixed, { fps: 10 })).rejects.toThrow(
      'encodeVideo: ' + file + ': frame 2: expected 32 x 32 like frame 0, got 34 x 32.',
    );
    await expect(encodeVideo(file, [createImage(33, 32)], { fps: 10 })).rejects.toThrow(
      /even width and height/,
    );
    await expect(encodeVideo(file, [], { fps: 10 })).rejects.toThrow(/at least one frame/);
    expect((await readdir(dir)).filter((f) => f.includes('bad'))).toEqual([]);
  });

  it('reports a failing ffmpeg with its command, exit code and stderr, leaving no file', async () => {
    const file = path.join(dir, 'clip.nosuchformat');
    const err = await encodeVideo(file, [createImage(32, 32)], { fps: 10 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    const e = err as FfmpegError;
    expect(e.exitCode).not.toBe(0);
    expect(e.exitCode).toBeTypeOf('number');
    expect(e.stderrTail).toMatch(/output format/i);
    expect(e.message).toMatch(
      new RegExp(`^encodeVideo: ${file}: ffmpeg failed \\(exit code \\d+\\): .*output format`, 'i'),
    );
    expect(e.cause).toBeInstanceOf(Error);
    expect((await readdir(dir)).filter((f) => f.includes('nosuchformat'))).toEqual([]);
  });

  it('times out with an FfmpegError saying so', async () => {
    const file = path.join(dir, 'slow.mp4');
    async function* slow(): AsyncGenerator<RgbImage> {
      for (let t = 0; t < 100; t++) {
        yield syntheticFrame(t % CLIP.frames);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const err = await encodeVideo(file, slow(), { fps: 10, timeout: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as FfmpegError).timedOut).toBe(true);
    expect((err as Error).message).toMatch('ffmpeg failed (timed out after 300 ms)');
    await expect(stat(file)).rejects.toThrow();
  });

  it('aborts through its signal with an FfmpegError, leaving no file', async () => {
    const file = path.join(dir, 'aborted.mp4');
    const ac = new AbortController();
    async function* endless(): AsyncGenerator<RgbImage> {
      for (let t = 0; ; t++) {
        if (t === 5) ac.abort();
        yield syntheticFrame(t % CLIP.frames);
        await new Promise((r) => setTimeout(r, 1));
      }
    }
    const err = await encodeVideo(file, endless(), { fps: 10, signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as FfmpegError).aborted).toBe(true);
    expect((err as FfmpegError).command).toMatch(/ffmpeg .*libx264/);
    await expect(stat(file)).rejects.toThrow();
    expect((await readdir(dir)).filter((f) => f.includes('aborted'))).toEqual([]);
  });
});

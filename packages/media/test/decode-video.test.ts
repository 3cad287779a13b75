import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileError } from '@mocap/layout';
import { decodeVideo, findFfmpeg, probeVideo } from '@mocap/media';
import { FfmpegError } from '@mocap/media/internal';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP, RED_SIZE, redAt, redCentroid, syntheticClipFolder } from './helpers.js';

let dir: string;
let clip: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, clip, cleanup } = await syntheticClipFolder({ crf: 4, preset: 'veryfast' }));
});
afterAll(() => cleanup());

async function collect(it: AsyncIterable<{ width: number; height: number; data: Uint8Array }>) {
  const out = [];
  for await (const f of it) out.push(f);
  return out;
}

describe('decodeVideo', () => {
  it('streams every frame, split on frame boundaries, in order', async () => {
    const frames = await collect(decodeVideo(clip));
    expect(frames).toHaveLength(CLIP.frames);
    frames.forEach((f, t) => {
      expect(f.width).toBe(CLIP.width);
      expect(f.data.length).toBe(CLIP.width * CLIP.height * 3);
      const [x, y] = redAt(t);
      const c = redCentroid(f)!;
      expect(Math.abs(c[0] - (x + RED_SIZE / 2))).toBeLessThan(0.5);
      expect(Math.abs(c[1] - (y + RED_SIZE / 2))).toBeLessThan(0.5);
    });
  });

  it('scales to a size and resamples the frame rate', async () => {
    const frames = await collect(decodeVideo(clip, { size: { width: 80, height: 48 }, fps: 12 }));
    expect(frames).toHaveLength(CLIP.frames / 2);
    expect(frames[0]!.width).toBe(80);
    expect(frames[0]!.data.length).toBe(80 * 48 * 3);
    // Half size, every other frame: the square is at half its position of frame 2t.
    const [x] = redAt(2 * 3);
    expect(redCentroid(frames[3]!)![0]).toBeCloseTo((x + RED_SIZE / 2) / 2, 0);
  });

  it('skips the probe when given its result', async () => {
    const info = await probeVideo(clip);
    expect(await collect(decodeVideo(clip, { info }))).toHaveLength(info.frames);
    // A probe would find the real height: the given one cuts ffmpeg's output into half frames.
    const half = { ...info, height: info.height / 2 };
    const frames = await collect(decodeVideo(clip, { info: half }));
    expect(frames[0]!.height).toBe(info.height / 2);
    expect(frames).toHaveLength(info.frames * 2);
  });

  it('keeps every step-th frame only', async () => {
    const frames = await collect(decodeVideo(clip, { step: 5 }));
    expect(frames).toHaveLength(Math.ceil(CLIP.frames / 5));
    const [x] = redAt(10);
    expect(redCentroid(frames[2]!)![0]).toBeCloseTo(x + RED_SIZE / 2, 0);
    expect(await collect(decodeVideo(clip, { step: 5, maxFrames: 2 }))).toHaveLength(2);
  });

  it('turns frames upright by the rotation metadata', async () => {
    // The coded frames are the clip turned a quarter clockwise; the tag turns them back.
    const coded = path.join(dir, 'turned.mp4');
    const tagged = path.join(dir, 'tagged.mp4');
    const ff = findFfmpeg();
    await execa(ff, [
      '-v',
      'error',
      '-y',
      '-i',
      clip,
      '-vf',
      'transpose=1',
      '-c:v',
      'libx264',
      '-crf',
      '4',
      coded,
    ]);
    await execa(ff, ['-v', 'error', '-y', '-i', coded, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', tagged]);
    const info = await probeVideo(tagged);
    expect(info).toMatchObject({
      rotation: 90,
      width: CLIP.width,
      height: CLIP.height,
      coded: { width: CLIP.height, height: CLIP.width },
    });
    const frames = await collect(decodeVideo(tagged, { maxFrames: 3 }));
    expect(frames[2]!.width).toBe(CLIP.width);
    const [x, y] = redAt(2);
    const c = redCentroid(frames[2]!)!;
    expect(Math.abs(c[0] - (x + RED_SIZE / 2))).toBeLessThan(1);
    expect(Math.abs(c[1] - (y + RED_SIZE / 2))).toBeLessThan(1);
  });

  it('resamples a variable-frame-rate video to its average rate', async () => {
    // Every third frame dropped, the others keep their times: 24 fps timing, 16 fps on average.
    const vfr = path.join(dir, 'vfr.mp4');
    await execa(findFfmpeg(), [
      '-v',
      'error',
      '-y',
      '-i',
      clip,
      '-vf',
      "select='not(eq(mod(n\\,3)\\,1))'",
      '-fps_mode',
      'vfr',
      '-c:v',
      'libx264',
      '-crf',
      '4',
      vfr,
    ]);
    const info = await probeVideo(vfr);
    expect(info.vfr).toBe(true);
    expect(info.fps).toBeCloseTo(16, 5);
    const frames = await collect(decodeVideo(vfr, { info }));
    expect(frames).toHaveLength(16);
    // Output frame k shows the moment k / 16 s: source frame 1.5 k of the 24 fps clip, give or take one.
    for (const k of [4, 10, 15]) {
      const seen = (redCentroid(frames[k]!)![0] - 8 - RED_SIZE / 2) / 4;
      expect(Math.abs(seen - 1.5 * k)).toBeLessThanOrEqual(1.01);
    }
    expect((await probeVideo(clip)).vfr).toBe(false);
  });

  it('stops after maxFrames, and stops ffmpeg when the loop breaks', async () => {
    expect(await collect(decodeVideo(clip, { maxFrames: 5 }))).toHaveLength(5);
    let n = 0;
    for await (const _ of decodeVideo(clip)) if (++n === 3) break;
    expect(n).toBe(3);
  });

  it('aborts mid-stream with an FfmpegError', async () => {
    const ac = new AbortController();
    let n = 0;
    const err = await (async () => {
      for await (const _ of decodeVideo(clip, { signal: ac.signal })) {
        if (++n === 2) ac.abort();
        await new Promise((r) => setTimeout(r, 20));
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as FfmpegError).aborted).toBe(true);
    expect((err as FfmpegError).message).toMatch(`decodeVideo: ${clip}: ffmpeg failed (aborted)`);
    expect(n).toBeLessThan(CLIP.frames);
  });

  it('times out with an FfmpegError saying so', async () => {
    const info = await probeVideo(clip);
    const err = await (async () => {
      for await (const _ of decodeVideo(clip, { info, timeout: 300 }))
        await new Promise((r) => setTimeout(r, 100));
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as FfmpegError).timedOut).toBe(true);
    expect((err as Error).message).toMatch(`decodeVideo: ${clip}: ffmpeg failed (timed out after 300 ms)`);
  });

  it('says a file that is not a video is not one', async () => {
    const txt = path.join(dir, 'clip.txt');
    await writeFile(txt, 'frame 1\nframe 2\n');
    await expect(collect(decodeVideo(txt))).rejects.toThrow(`probeVideo: ${txt}: not a video (`);
  });

  it('gives a clear error for a missing file', async () => {
    const missing = path.join(dir, 'missing.mp4');
    const err = await collect(decodeVideo(missing)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileError);
    expect((err as Error).message).toBe(`probeVideo: ${missing}: no such file.`);
  });
});

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileError } from '@mocap/layout';
import { encodeVideo, probeVideo, writePng } from '@mocap/media';
import { FfmpegError } from '@mocap/media/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP, syntheticClipFolder, syntheticFrame, syntheticFrames } from './helpers.js';

let dir: string;
let clip: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, clip, cleanup } = await syntheticClipFolder({ preset: 'ultrafast' }));
});
afterAll(() => cleanup());

describe('probeVideo', () => {
  it('reports size, frame rate (rational and number), frames, duration and codec', async () => {
    const info = await probeVideo(clip);
    expect(info).toMatchObject({
      width: CLIP.width,
      height: CLIP.height,
      fps: CLIP.fps,
      fpsRational: { num: CLIP.fps, den: 1 },
      frames: CLIP.frames,
      codec: 'h264',
      rotation: 0,
      vfr: false,
      coded: { width: CLIP.width, height: CLIP.height },
    });
    expect(info.duration).toBeCloseTo(CLIP.frames / CLIP.fps, 2);
    expect(info.format).toContain('mp4');
  });

  it('counts frames when the container does not say (Matroska)', async () => {
    const mkv = path.join(dir, 'clip.mkv');
    await encodeVideo(mkv, syntheticFrames(7), { fps: 12, preset: 'ultrafast' });
    const info = await probeVideo(mkv);
    expect(info.frames).toBe(7);
    expect(info.fps).toBe(12);
  });

  it('names a missing file', async () => {
    const missing = path.join(dir, 'nope.mp4');
    const err = await probeVideo(missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileError);
    expect((err as FileError).message).toBe(`probeVideo: ${missing}: no such file.`);
    expect((err as FileError).file).toBe(missing);
  });

  it('says a text file is not a video, keeping the ffprobe error as cause', async () => {
    const txt = path.join(dir, 'notes.mp4');
    await writeFile(txt, 'these are not frames\n'.repeat(50));
    const err = await probeVideo(txt).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FileError);
    expect((err as Error).message).toMatch(new RegExp(`^probeVideo: ${txt}: not a video \\(.*Invalid data`));
    const cause = (err as Error).cause as FfmpegError;
    expect(cause).toBeInstanceOf(FfmpegError);
    expect(cause.exitCode).toBe(1);
    expect(cause.command).toContain('ffprobe');
    expect(cause.stderrTail).toMatch(/Invalid data/);
  });

  it('says a still image is not a video', async () => {
    const png = path.join(dir, 'still.png');
    await writePng(png, syntheticFrame(0));
    await expect(probeVideo(png)).rejects.toThrow(`probeVideo: ${png}: not a video (a still image`);
  });

  it('aborts with an FfmpegError', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await probeVideo(clip, { signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FfmpegError);
    expect((err as FfmpegError).aborted).toBe(true);
  });
});

import { execa } from 'execa';
import { z } from 'zod';
import { findFfmpeg } from './find-ffmpeg.js';
import type { RgbImage } from './image.js';
import { probeVideo, type VideoInfo } from './probe-video.js';
import { toFfmpegError } from './run-tool.js';

/** A frame buffer without the zero fill (every byte is overwritten), as a plain Uint8Array. */
function newFrame(bytes: number): Uint8Array {
  const b = Buffer.allocUnsafeSlow(bytes);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Options of {@link decodeVideo}. */
export const DecodeOptions = z
  .object({
    /**
     * Resample to this frame rate (ffmpeg's `fps` filter); when left out every decoded frame, or
     * for a variable-frame-rate video ({@link VideoInfo.vfr}) frames resampled to its average rate.
     */
    fps: z.number().positive().optional(),
    /**
     * Only every `step`-th frame (0, step, 2 step, ...; counted after any resampling), e.g. to
     * sample a clip cheaply: ffmpeg still decodes every frame, only the kept ones reach JS. @default 1
     */
    step: z.number().int().positive().default(1),
    /** Scale frames to this size (area filter when shrinking, bicubic otherwise); the video's own when left out. */
    size: z
      .object({ width: z.number().int().positive(), height: z.number().int().positive() })
      .strict()
      .optional(),
    /**
     * The clip's {@link probeVideo} result, when the caller has it: skips the probe (about 0.15 s
     * of process start here). Without it the file is probed first.
     */
    info: z
      .custom<VideoInfo>((v) => typeof v === 'object' && v !== null && 'width' in v && 'height' in v)
      .optional(),
    /** Stop after this many frames (kept frames, with `step`). */
    maxFrames: z.number().int().positive().optional(),
    /** Cancels the decode: the iterator throws an FfmpegError with `aborted`. */
    signal: z.instanceof(AbortSignal).optional(),
    /** Limit for the whole decode (probe included), ms. @default 3600000 */
    timeout: z.number().int().positive().default(3_600_000),
  })
  .strict();
/** Options of {@link decodeVideo}. */
export type DecodeOptions = z.input<typeof DecodeOptions>;

/**
 * Decodes a video's first video stream to RGB frames, streamed from ffmpeg's stdout through a
 * pipe (raw rgb24, split exactly on frame boundaries; nothing is written to disk). Frames come
 * upright (rotation metadata applied, as a player shows them) and evenly timed (a
 * variable-frame-rate video is resampled to its average rate), as the consumer pulls them;
 * breaking out of the loop stops ffmpeg.
 * A missing or non-video file is a FileError (from {@link probeVideo}); a failed, aborted or
 * timed-out ffmpeg an {@link FfmpegError}.
 *
 * ```ts
 * for await (const frame of decodeVideo('clip.mp4', { size: { width: 1280, height: 720 } })) {
 *   frame.data.length === 1280 * 720 * 3;
 * }
 * ```
 */
export async function* decodeVideo(file: string, options: DecodeOptions = {}): AsyncGenerator<RgbImage> {
  const o = DecodeOptions.parse(options);
  const started = Date.now();
  const probeOpts = { timeout: Math.min(o.timeout, 60_000), ...(o.signal ? { signal: o.signal } : {}) };
  const info = o.info ?? (await probeVideo(file, probeOpts));
  const width = o.size?.width ?? info.width;
  const height = o.size?.height ?? info.height;
  const filters: string[] = [];
  if (o.fps !== undefined) filters.push(`fps=${o.fps}`);
  else if (info.vfr) filters.push(`fps=${info.fpsRational.num}/${info.fpsRational.den}`);
  if (o.step > 1) filters.push(`select='not(mod(n\\,${o.step}))'`);
  if (o.size && (width !== info.width || height !== info.height)) {
    const flags = width <= info.width && height <= info.height ? 'area' : 'bicubic';
    filters.push(`scale=${width}:${height}:flags=${flags}`);
  }
  // ffmpeg turns the frames upright by the rotation metadata (its default `autorotate`).
  const args = ['-nostdin', '-v', 'error', '-i', file, '-map', '0:v:0'];
  if (filters.length > 0) args.push('-vf', filters.join(','));
  // Each decoded (or selected) frame once: no duplicates or drops to a constant output rate.
  args.push('-fps_mode', 'passthrough');
  if (o.maxFrames !== undefined) args.push('-frames:v', String(o.maxFrames));
  args.push('-an', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1');
  const timeout = Math.max(1, o.timeout - (Date.now() - started));
  const op = `decodeVideo: ${file}`;
  const sub = execa(findFfmpeg(), args, {
    stdin: 'ignore',
    buffer: { stdout: false, stderr: true },
    timeout,
    forceKillAfterDelay: 2000,
    ...(o.signal ? { cancelSignal: o.signal } : {}),
  });
  // The consumer may pause at a `yield` while ffmpeg fails: handle the rejection now, read it below.
  sub.catch(() => {});
  const frameBytes = width * height * 3;
  let finished = false;
  try {
    let frame = newFrame(frameBytes);
    let filled = 0;
    for await (const chunk of sub.stdout as AsyncIterable<Buffer>) {
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(frameBytes - filled, chunk.length - at);
        frame.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === frameBytes) {
          yield { width, height, data: frame };
          frame = newFrame(frameBytes);
          filled = 0;
        }
      }
    }
    await sub;
    finished = true;
    if (filled !== 0) {
      throw new Error(`${op}: ffmpeg's output ended inside a frame (${filled} of ${frameBytes} bytes).`);
    }
  } catch (err) {
    finished = true;
    if (sub.exitCode === null && sub.signalCode === null) sub.kill();
    const failure = await sub.then(
      () => undefined,
      (e: unknown) => e,
    );
    throw toFfmpegError(op, 'ffmpeg', failure ?? err, o.timeout);
  } finally {
    if (!finished) {
      sub.kill();
      await sub.catch(() => {});
    }
  }
}

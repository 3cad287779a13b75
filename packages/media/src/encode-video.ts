import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { execa } from 'execa';
import { z } from 'zod';
import { findFfmpeg } from './find-ffmpeg.js';
import { assertRgbImage, type RgbImage } from './image.js';
import { toFfmpegError } from './run-tool.js';

/** Options of {@link encodeVideo}. */
export const EncodeOptions = z
  .object({
    /** Frames per second: a number or a rational string such as `30000/1001`. */
    fps: z.union([z.number().positive(), z.string().regex(/^[1-9]\d*(\/[1-9]\d*)?$/)]),
    /** x264 constant rate factor, 0 (lossless) to 51. @default 18 */
    crf: z.number().int().min(0).max(51).default(18),
    /** x264 preset. @default 'medium' */
    preset: z
      .enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'])
      .default('medium'),
    /**
     * ffmpeg video filters run on the RGB frames before the conversion to yuv420p, e.g.
     * `['gblur=sigma=1', 'scale=832:480:flags=area']`; the output size is then the filters' (even).
     * @default []
     */
    filters: z.array(z.string().min(1)).default([]),
    /** Cancels the encode; nothing is left at the output path. */
    signal: z.instanceof(AbortSignal).optional(),
    /** Limit for the whole encode, ms. @default 3600000 */
    timeout: z.number().int().positive().default(3_600_000),
  })
  .strict();
/** Options of {@link encodeVideo}. */
export type EncodeOptions = z.input<typeof EncodeOptions>;

type Frames = Iterable<RgbImage> | AsyncIterable<RgbImage>;

function iterate(frames: Frames): AsyncIterator<RgbImage> | Iterator<RgbImage> {
  const a = (frames as AsyncIterable<RgbImage>)[Symbol.asyncIterator];
  if (a) return a.call(frames);
  const s = (frames as Iterable<RgbImage>)[Symbol.iterator];
  if (s) return s.call(frames);
  throw new TypeError('encodeVideo: expected frames as an iterable or async iterable of RgbImage.');
}

/**
 * Encodes RGB frames to an H.264 video (libx264, yuv420p, BT.709 limited range and tagged so,
 * `+faststart`), streaming raw rgb24
 * into ffmpeg's stdin with back-pressure. The file is written under a temporary name beside
 * `file` and renamed when ffmpeg succeeds, so `file` is never half-written. All frames must have
 * the first frame's size, with even width and height (yuv420p). Resolves to the frame count.
 *
 * ```ts
 * const n = await encodeVideo('out/clip.mp4', frames, { fps: 30, crf: 18, preset: 'veryfast' });
 * ```
 */
export async function encodeVideo(file: string, frames: Frames, options: EncodeOptions): Promise<number> {
  const o = EncodeOptions.parse(options);
  const op = `encodeVideo: ${file}`;
  const it = iterate(frames);
  const first = await it.next();
  if (first.done) throw new TypeError(`${op}: expected at least one frame, got none.`);
  const { width, height } = first.value;
  assertRgbImage(op, first.value, 'frame 0');
  if (width % 2 !== 0 || height % 2 !== 0) {
    throw new TypeError(`${op}: expected an even width and height (yuv420p), got ${width} x ${height}.`);
  }
  await mkdir(path.dirname(file), { recursive: true });
  const ext = path.extname(file) || '.mp4';
  const tmp = path.join(
    path.dirname(file),
    `.${path.basename(file, ext)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}${ext}`,
  );
  const args = ['-y', '-v', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`];
  args.push('-framerate', String(o.fps), '-i', 'pipe:0', '-an', '-c:v', 'libx264', '-preset', o.preset);
  // BT.709 limited range, tagged, so players and decodeVideo (ffmpeg reads the tags) agree on colours.
  const vf = [...o.filters, 'scale=out_color_matrix=bt709:out_range=tv,format=yuv420p'];
  args.push('-vf', vf.join(','), '-crf', String(o.crf));
  args.push('-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv');
  args.push('-pix_fmt', 'yuv420p', '-movflags', '+faststart');
  if (ext === '.mp4' || ext === '.mov') args.push('-f', ext.slice(1));
  args.push(tmp);
  const sub = execa(findFfmpeg(), args, {
    stdin: 'pipe',
    stdout: 'ignore',
    timeout: o.timeout,
    forceKillAfterDelay: 2000,
    ...(o.signal ? { cancelSignal: o.signal } : {}),
  });
  let count = 0;
  let inputError: unknown;
  /** Checks frame `count`; a bad one becomes `inputError`. */
  function check(f: RgbImage): void {
    try {
      assertRgbImage(op, f, `frame ${count}`);
      if (f.width !== width || f.height !== height) {
        throw new TypeError(
          `${op}: frame ${count}: expected ${width} x ${height} like frame 0, got ${f.width} x ${f.height}.`,
        );
      }
    } catch (err) {
      inputError = err;
      throw err;
    }
  }
  /** Raw frame bytes. Errors of the source are kept as `inputError`; EPIPE thrown in at `yield` is not. */
  async function* bytes(): AsyncGenerator<Uint8Array> {
    let r: IteratorResult<RgbImage> = first;
    try {
      while (!r.done) {
        check(r.value);
        yield r.value.data;
        count++;
        try {
          r = await it.next();
        } catch (err) {
          inputError = err;
          throw err;
        }
      }
    } finally {
      if (!r.done && inputError === undefined) await it.return?.();
    }
  }
  const [fed, ran] = await Promise.allSettled([pipeline(Readable.from(bytes()), sub.stdin!), sub]);
  try {
    if (inputError !== undefined) throw inputError;
    if (ran.status === 'rejected') throw toFfmpegError(op, 'ffmpeg', ran.reason, o.timeout);
    if (fed.status === 'rejected') throw fed.reason;
    await rename(tmp, file);
    return count;
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

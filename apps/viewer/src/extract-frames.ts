import { mkdir, readdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { findFfmpeg } from '@mocap/media';
import { execa } from 'execa';

/** Options of {@link extractFrames}. */
export interface ExtractFramesOptions {
  /** JPEG quality as ffmpeg's `-q:v` (2 best .. 31). @default 3 */
  quality?: number;
  /** @default 120000 */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/**
 * Writes every frame of `clip` as `<out>/<t>.jpg` (t from 0, five digits) with ffmpeg, so the
 * page can show any frame at once instead of seeking in the H.264 clip. The frames land in a
 * temporary folder renamed to `out` when ffmpeg has finished. Resolves to the frame count.
 *
 * ```ts
 * const n = await extractFrames('runs/exam/render-seed1/clip.mp4', '/tmp/frames');
 * ```
 */
export async function extractFrames(
  clip: string,
  out: string,
  opts: ExtractFramesOptions = {},
): Promise<number> {
  const tmp = `${out}.part`;
  await mkdir(tmp, { recursive: true });
  try {
    await execa(
      findFfmpeg(),
      [
        '-v',
        'error',
        '-i',
        clip,
        '-q:v',
        String(opts.quality ?? 3),
        '-start_number',
        '0',
        path.join(tmp, '%05d.jpg'),
      ],
      { timeout: opts.timeoutMs ?? 120_000, ...(opts.signal ? { cancelSignal: opts.signal } : {}) },
    );
  } catch (err) {
    const e = err as { stderr?: string; timedOut?: boolean };
    throw new Error(
      `view: ${clip}: ffmpeg could not extract the frames${e.timedOut ? ' (timed out)' : ''}: ${(e.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`,
      { cause: err },
    );
  }
  await rename(tmp, out);
  return (await readdir(out)).filter((f) => f.endsWith('.jpg')).length;
}

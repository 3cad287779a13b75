import { mkdir, readdir } from 'node:fs/promises';
import { setPriority } from 'node:os';
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

/** The file {@link extractFrames} writes for frame `t` of a clip. */
export const frameFile = (out: string, t: number): string =>
  path.join(out, `${String(t).padStart(5, '0')}.jpg`);

/**
 * Writes every frame of `clip` as `<out>/<t>.jpg` (t from 0, five digits, see {@link frameFile})
 * with ffmpeg, so the page can show any frame at once instead of seeking in the H.264 clip. Each
 * frame is written to a temporary name and renamed (ffmpeg's `-atomic_writing`), so a frame's
 * file is whole as soon as it exists and a reader need not wait for the last frame. ffmpeg runs
 * at a lower priority (nice 10): it is background work beside the page that shows the frames.
 * Resolves to the frame count.
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
  await mkdir(out, { recursive: true });
  const child = execa(
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
      '-atomic_writing',
      '1',
      path.join(out, '%05d.jpg'),
    ],
    { timeout: opts.timeoutMs ?? 120_000, ...(opts.signal ? { cancelSignal: opts.signal } : {}) },
  );
  try {
    if (child.pid !== undefined) setPriority(child.pid, 10);
  } catch {
    // Not allowed here (or already gone): it runs at the default priority.
  }
  try {
    await child;
  } catch (err) {
    const e = err as { stderr?: string; timedOut?: boolean };
    throw new Error(
      `view: ${clip}: ffmpeg could not extract the frames${e.timedOut ? ' (timed out)' : ''}: ${(e.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`,
      { cause: err },
    );
  }
  return (await readdir(out)).filter((f) => f.endsWith('.jpg')).length;
}

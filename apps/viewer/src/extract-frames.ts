import { mkdir, readdir } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';
import { findFfmpeg } from '@mocap/media';
import { execa } from 'execa';
import type { ProxyStrip } from './proxy-strip.js';

/** Options of {@link extractFrames}. */
export interface ExtractFramesOptions {
  /** JPEG quality as ffmpeg's `-q:v` (2 best .. 31). @default 3 */
  quality?: number;
  /** @default 120000 */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
  /** Also write the clip's proxy strips ({@link ProxyStrip}) into this folder, in the same ffmpeg pass. */
  strips?: { dir: string; strip: ProxyStrip };
}

/** The file {@link extractFrames} writes for frame `t` of a clip. */
export const frameFile = (out: string, t: number): string =>
  path.join(out, `${String(t).padStart(5, '0')}.jpg`);

/** The file {@link extractFrames} writes for proxy strip `k`. */
export const stripFile = (dir: string, k: number): string =>
  path.join(dir, `${String(k).padStart(4, '0')}.jpg`);

/**
 * Writes every frame of `clip` as `<out>/<t>.jpg` (t from 0, five digits, see {@link frameFile})
 * with ffmpeg, so the page can show any frame at once instead of seeking in the H.264 clip. Each
 * frame is written to a temporary name and renamed (ffmpeg's `-atomic_writing`), so a frame's
 * file is whole as soon as it exists and a reader need not wait for the last frame. ffmpeg runs
 * at a lower priority (nice 10): it is background work beside the page that shows the frames.
 * With `strips`, the same pass writes the proxy strips ({@link stripFile}), each once its last
 * thumbnail is decoded (the last one at the clip's end, partly filled).
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
  const frameOut = ['-q:v', String(opts.quality ?? 3), '-start_number', '0', '-atomic_writing', '1'];
  let args = ['-v', 'error', '-i', clip, ...frameOut, path.join(out, '%05d.jpg')];
  if (opts.strips) {
    const { dir, strip: s } = opts.strips;
    await mkdir(dir, { recursive: true });
    const graph = `[0:v]split=2[f][s];[s]scale=${s.thumbWidth}:${s.thumbHeight},tile=${s.cols}x${s.rows}[t]`;
    args = [
      '-v',
      'error',
      '-i',
      clip,
      '-filter_complex',
      graph,
      '-map',
      '[f]',
      ...frameOut,
      path.join(out, '%05d.jpg'),
    ];
    args.push(
      '-map',
      '[t]',
      '-q:v',
      '4',
      '-start_number',
      '0',
      '-atomic_writing',
      '1',
      path.join(dir, '%04d.jpg'),
    );
  }
  const child = execa(findFfmpeg(), args, {
    timeout: opts.timeoutMs ?? 120_000,
    ...(opts.signal ? { cancelSignal: opts.signal } : {}),
  });
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

import { atomicWrite } from '@mocap/layout';
import { FalError } from './fal-error.js';

/** Options of {@link downloadFile}. */
export interface DownloadFileOptions {
  /** The fetch to use (a {@link createFalFetch} one retries and redirects like the client). */
  fetch: typeof fetch;
  url: string;
  /** Destination; written atomically (temporary file + rename). */
  dest: string;
  signal?: AbortSignal | undefined;
  /** Checks the bytes before they are written; returns a problem or undefined. */
  check?: ((bytes: Uint8Array) => string | undefined) | undefined;
}

/** An MP4 check for {@link downloadFile}: an ISO-BMFF `ftyp` box at the start. */
export function checkMp4(bytes: Uint8Array): string | undefined {
  if (bytes.length < 12) return `only ${bytes.length} bytes`;
  const box = new TextDecoder().decode(bytes.subarray(4, 8));
  return box === 'ftyp' ? undefined : `no "ftyp" box at the start (got ${JSON.stringify(box)}): not an MP4`;
}

/**
 * Downloads `url` to `dest` atomically: a reader sees no file or the whole file, never part.
 *
 * ```ts
 * await downloadFile({ fetch: createFalFetch(), url, dest: 'runs/videos/trot/s0/model.mp4', check: checkMp4 });
 * ```
 */
export async function downloadFile(opts: DownloadFileOptions): Promise<number> {
  const res = await opts.fetch(opts.url, { method: 'GET', signal: opts.signal ?? null });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const problem = opts.check?.(bytes);
  if (problem) throw new FalError(`download ${opts.url}: ${problem}; nothing written to ${opts.dest}.`, 0);
  await atomicWrite(opts.dest, bytes);
  return bytes.length;
}

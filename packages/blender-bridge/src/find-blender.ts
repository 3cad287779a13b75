import { execa } from 'execa';
import { BlenderError } from './blender-error.js';

/** The oldest Blender the scripts support. */
export const MIN_BLENDER_VERSION: readonly [number, number] = [3, 4];

/** A Blender executable and its version. */
export interface BlenderInfo {
  /** The command or path that runs it. */
  path: string;
  /** [major, minor, patch]. */
  version: [number, number, number];
}

/** Where to look for Blender. */
export interface FindBlenderOptions {
  /** Explicit executable; wins over `BLENDER` and PATH. */
  blender?: string | undefined;
  /** Environment to read `BLENDER` from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Timeout for `blender --version`, ms. @default 60000 */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

const cache = new Map<string, Promise<BlenderInfo>>();

/** Parses the first line of `blender --version` ("Blender 3.4.1"); null when it is not one. */
export function parseBlenderVersion(text: string): [number, number, number] | null {
  const m = /Blender (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/**
 * Finds Blender (`opts.blender`, then the `BLENDER` environment variable, then `blender` on PATH)
 * and checks its version is at least {@link MIN_BLENDER_VERSION}. Results are cached per path.
 *
 * ```ts
 * const { path, version } = await findBlender(); // { path: 'blender', version: [3, 4, 1] }
 * ```
 */
export function findBlender(opts: FindBlenderOptions = {}): Promise<BlenderInfo> {
  const env = opts.env ?? process.env;
  const path = opts.blender || env.BLENDER || 'blender';
  let found = cache.get(path);
  if (!found) {
    found = probe(path, opts.timeoutMs ?? 60_000, opts.signal);
    cache.set(path, found);
    found.catch(() => cache.delete(path));
  }
  return found;
}

async function probe(path: string, timeout: number, signal: AbortSignal | undefined): Promise<BlenderInfo> {
  const r = await execa(path, ['--version'], {
    reject: false,
    timeout,
    stdin: 'ignore',
    ...(signal ? { cancelSignal: signal } : {}),
  });
  if (r.failed && (r.code === 'ENOENT' || r.code === 'EACCES' || r.exitCode === undefined)) {
    throw new BlenderError(
      `blender: cannot run "${path}" (${r.code ?? r.shortMessage}). Install Blender ${MIN_BLENDER_VERSION.join('.')} or newer, or set BLENDER to its path.`,
      { kind: r.isCanceled ? 'cancelled' : r.timedOut ? 'timeout' : 'not-found', cause: r },
    );
  }
  const version = parseBlenderVersion(String(r.stdout));
  if (!version) {
    throw new BlenderError(
      `blender: "${path}" does not look like Blender: \`--version\` printed ${JSON.stringify(String(r.stdout).slice(0, 80))}.`,
      { kind: 'version', exitCode: r.exitCode ?? null, stderrTail: String(r.stderr).slice(-2000), cause: r },
    );
  }
  const [maj, min] = MIN_BLENDER_VERSION;
  if (version[0] < maj || (version[0] === maj && version[1] < min)) {
    throw new BlenderError(
      `blender: "${path}" is Blender ${version.join('.')}; mocap needs ${maj}.${min} or newer.`,
      { kind: 'version' },
    );
  }
  return { path, version };
}

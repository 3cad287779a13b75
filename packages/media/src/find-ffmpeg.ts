import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function find(tool: 'ffmpeg' | 'ffprobe', envVar: 'FFMPEG' | 'FFPROBE'): string {
  const fromEnv = process.env[envVar];
  if (fromEnv) {
    if (!executable(fromEnv)) {
      throw new Error(`${tool}: ${envVar}=${fromEnv} is not an executable file.`);
    }
    return fromEnv;
  }
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const names = process.platform === 'win32' ? [`${tool}.exe`, tool] : [tool];
  for (const dir of dirs) {
    for (const name of names) {
      const file = path.join(dir, name);
      if (executable(file)) return file;
    }
  }
  throw new Error(
    `${tool}: not found: set ${envVar} to its path or put it on PATH (Debian: apt-get install ffmpeg).`,
  );
}

/**
 * The ffmpeg executable: `$FFMPEG` when set (it must be an executable file), else the first
 * `ffmpeg` on `PATH`. Throws an Error saying how to fix it when there is none.
 *
 * ```ts
 * findFfmpeg(); // '/usr/bin/ffmpeg'
 * ```
 */
export function findFfmpeg(): string {
  return find('ffmpeg', 'FFMPEG');
}

/** The ffprobe executable: `$FFPROBE` when set, else the first `ffprobe` on `PATH`. */
export function findFfprobe(): string {
  return find('ffprobe', 'FFPROBE');
}

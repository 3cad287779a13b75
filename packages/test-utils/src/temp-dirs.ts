import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** Temporary folders of one test file (see {@link tempDirs}). */
export interface TempDirs {
  /** A new empty folder under the OS's temporary folder, named `<prefix>XXXXXX`. */
  make(prefix: string): Promise<string>;
  /** Removes every folder made so far (also run after the file's tests). */
  removeAll(): Promise<void>;
}

/**
 * Temporary folders removed after the test file's (or the describe block's) tests: call at the
 * top of a file or describe block, where `afterAll` may be registered.
 *
 * ```ts
 * const temp = tempDirs();
 * it('writes det.npz', async () => {
 *   const dir = await temp.make('mocap-det-');
 * });
 * ```
 */
export function tempDirs(): TempDirs {
  const made: string[] = [];
  const dirs: TempDirs = {
    async make(prefix) {
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async removeAll() {
      for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
  afterAll(() => dirs.removeAll());
  return dirs;
}

import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes the temporary files a stopped stage may leave in `dir` (names containing `.tmp-`, as
 * the Blender scripts and atomicWrite name them). Missing folders are fine.
 *
 * ```ts
 * await cleanTemps('creatures/wolf/runs/dataset');
 * ```
 */
export async function cleanTemps(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const temps = names.filter((n) => n.includes('.tmp-'));
  await Promise.all(temps.map((n) => rm(path.join(dir, n), { force: true })));
  return temps.length;
}

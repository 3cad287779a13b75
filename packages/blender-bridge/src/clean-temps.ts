import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes the temporary files a stopped stage may leave in `dir` (names containing `.tmp-`, as
 * the Blender scripts and atomicWrite name them); with `stems`, only those named
 * `<stem>.tmp-...`, so another writer's temporaries in the same folder (say showcase.mp4's
 * encoder, running beside apply) are left alone. Missing folders are fine.
 *
 * ```ts
 * await cleanTemps('creatures/wolf/runs/dataset');
 * await cleanTemps('runs/capture/trot', ['joints', 'animation']);
 * ```
 */
export async function cleanTemps(dir: string, stems?: readonly string[]): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const temps = names.filter((n) =>
    stems ? stems.some((s) => n.startsWith(`${s}.tmp-`)) : n.includes('.tmp-'),
  );
  await Promise.all(temps.map((n) => rm(path.join(dir, n), { force: true })));
  return temps.length;
}

import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';

// `.tmp-<pid>`: the writer's process id, as atomicWrite, the encoder and the Blender scripts name temporaries.
const TEMP_PID = /\.tmp-(\d+)/;

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a stopped stage may leave in `dir` (names containing `.tmp-<pid>`,
 * as the Blender scripts and atomicWrite name them); with `stems`, only those named
 * `<stem>.tmp-...`. A temporary whose writer (the pid in its name) still runs on this host is
 * left alone, whoever wrote it: this run's own encoder beside apply, or another run's files
 * (the output lock keeps two runs out of one folder; this keeps a clean-up from breaking one).
 * Missing folders are fine.
 *
 * ```ts
 * await cleanTemps('creatures/wolf/runs/dataset');
 * await cleanTemps('runs/capture/trot', ['joints', 'animation']);
 * ```
 */
export async function cleanTemps(dir: string, stems?: readonly string[]): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const temps = names.filter((n) => {
    if (stems ? !stems.some((s) => n.startsWith(`${s}.tmp-`)) : !n.includes('.tmp-')) return false;
    const pid = TEMP_PID.exec(n)?.[1];
    return pid === undefined || !running(Number(pid));
  });
  await Promise.all(temps.map((n) => rm(path.join(dir, n), { force: true })));
  return temps.length;
}

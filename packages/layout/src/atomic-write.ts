import { randomBytes } from 'node:crypto';
import { mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `data` to `file` atomically: into a temporary file beside it, then a rename, so a
 * reader sees the old file or the whole new one, never half a file. Creates missing folders.
 *
 * ```ts
 * await atomicWrite('runs/wolf/motion.json', JSON.stringify(motion));
 * ```
 */
export async function atomicWrite(file: string, data: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** Writes `value` as pretty JSON (two-space indent, trailing newline) with {@link atomicWrite}. */
export async function atomicWriteJson(file: string, value: unknown): Promise<void> {
  await atomicWrite(file, `${JSON.stringify(value, null, 2)}\n`);
}

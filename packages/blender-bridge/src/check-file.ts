import { open } from 'node:fs/promises';
import { FileError } from '@mocap/layout';

/** Throws a FileError naming `op` and `file` unless `file` is a readable file. */
export async function checkReadable(op: string, file: string, what: string): Promise<void> {
  try {
    const fh = await open(file, 'r');
    await fh.close();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new FileError(`${op}: ${file}: cannot read the ${what} (${code}).`, file, '', { cause: err });
  }
}

/** Throws a FileError unless `file` starts like a binary glTF (magic `glTF`, version 2, its length). */
export async function checkGlb(op: string, file: string): Promise<void> {
  await checkReadable(op, file, 'model');
  const fh = await open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await fh.read(head, 0, 12, 0);
    const { size } = await fh.stat();
    const magic = head.toString('latin1', 0, 4);
    if (bytesRead < 12 || magic !== 'glTF') {
      throw new FileError(
        `${op}: ${file}: not a binary glTF (magic ${JSON.stringify(magic)}, expected "glTF").`,
        file,
      );
    }
    const version = head.readUInt32LE(4);
    const length = head.readUInt32LE(8);
    if (version !== 2) throw new FileError(`${op}: ${file}: glTF version ${version}, expected 2.`, file);
    if (length !== size) {
      throw new FileError(
        `${op}: ${file}: truncated or corrupt (header says ${length} bytes, file has ${size}).`,
        file,
      );
    }
  } finally {
    await fh.close();
  }
}

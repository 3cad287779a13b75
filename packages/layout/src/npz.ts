import { readFile } from 'node:fs/promises';
import { atomicWrite } from './atomic-write.js';
import { FileError } from './file-error.js';
import { decodeNpy, encodeNpy, type NpyArray } from './npy.js';
import { readZip, writeZip } from './zip.js';

/** Options of {@link writeNpz}. */
export interface WriteNpzOptions {
  /** Deflate the entries, like `np.savez_compressed`. @default false (like `np.savez`) */
  compressed?: boolean;
}

/** Encodes named arrays as `.npz` bytes (a zip of `<name>.npy` entries, as NumPy writes). */
export function encodeNpz(
  arrays: Readonly<Record<string, NpyArray>>,
  options: WriteNpzOptions = {},
): Uint8Array {
  const entries = Object.entries(arrays).map(([name, arr]) => ({
    name: `${name}.npy`,
    data: encodeNpy(arr),
  }));
  return writeZip(entries, options.compressed ?? false);
}

/** Decodes `.npz` bytes to named arrays. `file` is used in error messages. */
export function decodeNpz(bytes: Uint8Array, file = 'archive.npz'): Record<string, NpyArray> {
  const out: Record<string, NpyArray> = {};
  for (const e of readZip(bytes, file)) {
    const name = e.name.endsWith('.npy') ? e.name.slice(0, -4) : e.name;
    out[name] = decodeNpy(e.data, `${file}: ${name}`);
  }
  return out;
}

/**
 * Reads a NumPy `.npz` file (from `np.savez` or `np.savez_compressed`).
 *
 * ```ts
 * const det = await readNpz('runs/wolf/det.npz');
 * det.front_uv.shape; // [T, J, 2]
 * ```
 */
export async function readNpz(file: string): Promise<Record<string, NpyArray>> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (err) {
    throw new FileError(`npz: ${file}: cannot read (${(err as NodeJS.ErrnoException).code}).`, file, '', {
      cause: err,
    });
  }
  try {
    return decodeNpz(bytes, file);
  } catch (err) {
    throw new FileError((err as Error).message, file, '', { cause: err });
  }
}

/** Writes named arrays as a NumPy `.npz` file, atomically. */
export async function writeNpz(
  file: string,
  arrays: Readonly<Record<string, NpyArray>>,
  options: WriteNpzOptions = {},
): Promise<void> {
  await atomicWrite(file, encodeNpz(arrays, options));
}

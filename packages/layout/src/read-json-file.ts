import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { FileError, fileErrorFromZod } from './file-error.js';

/**
 * Reads a JSON file and validates it with `schema`. Any failure is a {@link FileError} whose
 * message names the operation, the file, the field path and the bad value.
 *
 * ```ts
 * const rig = await readJsonFile('solve', 'creatures/wolf/rig.json', RigJson);
 * ```
 */
export async function readJsonFile<S extends z.ZodType>(
  op: string,
  file: string,
  schema: S,
): Promise<z.output<S>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new FileError(`${op}: ${file}: cannot read (${code}).`, file, '', { cause: err });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FileError(`${op}: ${file}: not valid JSON (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
  return parseFileData(op, file, data, schema);
}

/** Validates already-parsed `data` of `file` with `schema`, throwing a {@link FileError} on failure. */
export function parseFileData<S extends z.ZodType>(
  op: string,
  file: string,
  data: unknown,
  schema: S,
): z.output<S> {
  const r = schema.safeParse(data);
  if (!r.success) throw fileErrorFromZod(op, file, data, r.error);
  return r.data;
}

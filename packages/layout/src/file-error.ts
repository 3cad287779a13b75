import type { z } from 'zod';

/**
 * A file that failed to read or validate. The message names the operation, the file,
 * the field path and the bad value: `solve: rig_info.json: bones[4].parent: "spine9" is not a bone.`
 */
export class FileError extends Error {
  override name = 'FileError';
  constructor(
    message: string,
    /** The file's path. */
    readonly file: string,
    /** The field path inside the file, e.g. `bones[4].parent`; empty for the whole file. */
    readonly field: string = '',
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Formats a zod issue path as `a.b[3].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function show(v: unknown): string {
  if (v === undefined) return 'missing';
  const s = JSON.stringify(v);
  if (s === undefined) return String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** Turns a zod error on `data` (the content of `file`) into a FileError naming the first bad field. */
export function fileErrorFromZod(op: string, file: string, data: unknown, error: z.ZodError): FileError {
  const issues = error.issues.slice(0, 3).map((i) => {
    const field = formatPath(i.path);
    return `${field || '(root)'}: ${i.message} (got ${show(valueAt(data, i.path))})`;
  });
  const more = error.issues.length > 3 ? ` (+${error.issues.length - 3} more)` : '';
  const first = error.issues[0];
  return new FileError(
    `${op}: ${file}: ${issues.join('; ')}${more}.`,
    file,
    first ? formatPath(first.path) : '',
    {
      cause: error,
    },
  );
}

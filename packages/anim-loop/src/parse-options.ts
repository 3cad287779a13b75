import type { z } from 'zod';

/**
 * Parses an options object with its zod schema; a misused option throws a `TypeError` naming
 * the operation, the option and the value given.
 *
 * ```ts
 * const o = parseOptions('findLoop', FindLoopOptions, options);
 * ```
 */
export function parseOptions<S extends z.ZodType>(op: string, schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  let got: unknown = value;
  for (const k of issue.path)
    got = got !== null && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[k] : undefined;
  const where = issue.path.length > 0 ? `options.${issue.path.join('.')}` : 'options';
  throw new TypeError(`${op}: Expected ${where} to be valid (${issue.message}), got ${JSON.stringify(got)}.`);
}

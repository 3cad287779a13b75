import type { z } from 'zod';

/**
 * Parses an options object with its zod schema; a misuse is a TypeError naming the operation, the
 * field and the value: `trainReader: options.steps: Too small: expected number to be >0 (got 0).`
 *
 * ```ts
 * const o = parseOptions('trainReader', TrainOptions, options);
 * ```
 */
export function parseOptions<S extends z.ZodType>(
  op: string,
  schema: S,
  value: unknown,
  root = 'options',
): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const i = r.error.issues[0]!;
  let got: unknown = value;
  for (const p of i.path)
    got = got && typeof got === 'object' ? (got as Record<PropertyKey, unknown>)[p] : undefined;
  const field = [root, ...i.path.map(String)].join('.');
  throw new TypeError(`${op}: ${field}: ${i.message} (got ${JSON.stringify(got) ?? String(got)}).`, {
    cause: r.error,
  });
}

/**
 * The fal API key from the environment (`FAL_KEY` only; never from a file or a flag, never
 * logged or written). Throws a clear error naming what to set when it is missing.
 *
 * ```ts
 * const key = falKeyFromEnv(process.env);
 * ```
 */
export function falKeyFromEnv(env: NodeJS.ProcessEnv, op = 'fal'): string {
  const key = env.FAL_KEY?.trim();
  if (!key) {
    throw new Error(
      `${op}: FAL_KEY is not set. Export your fal API key (https://fal.ai/dashboard/keys) as FAL_KEY in the environment; it is never read from files or flags.`,
    );
  }
  return key;
}

/** Replaces every occurrence of `key` in `text` with `***` (a last guard for anything printed). */
export function redactKey(text: string, key: string | undefined): string {
  return key && key.length >= 4 ? text.split(key).join('***') : text;
}

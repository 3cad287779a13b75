// Module resolution hooks (see record-imports.mjs): each resolved URL, one a line, to `log`.
import { appendFileSync } from 'node:fs';

let log = '';

/** Takes the log file from register()'s data. */
export function initialize(data) {
  log = data.log;
}

/** Resolves as the next hook does and records the URL. */
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (log) appendFileSync(log, `${r.url}\n`);
  return r;
}

import { createFalClient, type FalClient } from '@fal-ai/client';
import { createFalFetch, type FalFetchOptions } from './fal-fetch.js';

/** Options of {@link createFal}: the key plus everything {@link createFalFetch} takes. */
export interface CreateFalOptions extends FalFetchOptions {
  /** The fal API key (from {@link falKeyFromEnv}). */
  key: string;
}

/**
 * The official `@fal-ai/client`, configured with an explicit key and {@link createFalFetch} as
 * its `fetch` (retries, clear errors, optional redirect to a local server, abort on Ctrl-C).
 *
 * ```ts
 * const fal = createFal({ key: falKeyFromEnv(process.env), signal });
 * ```
 */
export function createFal(opts: CreateFalOptions): FalClient {
  const { key, ...fetchOpts } = opts;
  return createFalClient({
    credentials: key,
    fetch: createFalFetch(fetchOpts),
    suppressLocalCredentialsWarning: true,
  });
}

export type { FalClient };

import { Redis } from 'ioredis';

/** Redis could not be reached, or refused us: the message names the URL (its password hidden). */
export class QueueConnectionError extends Error {
  override name = 'QueueConnectionError';
  constructor(
    message: string,
    /** The queue's URL with any password replaced by `***`. */
    readonly url: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `url` with its password (if any) replaced by `***`, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function explain(op: string, url: string, err: Error): QueueConnectionError {
  const shown = redactUrl(url);
  const msg = err.message;
  let why: string;
  if (/NOAUTH/i.test(msg)) why = 'requires a password: give it in the URL (redis://:PASSWORD@host:port)';
  else if (/WRONGPASS|invalid password|invalid username-password/i.test(msg))
    why = 'refused the password or user in the URL';
  else if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EAI_AGAIN|timed? ?out/i.test(msg))
    why = 'cannot be reached: is redis-server running there?';
  else why = 'failed';
  return new QueueConnectionError(`${op}: Redis at ${shown} ${why} (${msg}).`, shown, { cause: err });
}

/** Options of {@link checkRedis}. */
export interface CheckRedisOptions {
  /** The operation, for messages (`worker`, `dataset`...). @default 'queue' */
  operation?: string | undefined;
  /** Give up connecting after this many ms. @default 5000 */
  timeoutMs?: number | undefined;
}

/**
 * Connects once to the Redis at `url` (`redis://[:password@]host[:port][/db]`) and sends a PING,
 * without retrying: Redis down, a wrong host, a password it requires or refuses all reject at once
 * with a {@link QueueConnectionError} naming the URL, instead of the client's endless reconnects.
 *
 * ```ts
 * await checkRedis('redis://127.0.0.1:6379', { operation: 'worker' });
 * ```
 */
export async function checkRedis(url: string, opts: CheckRedisOptions = {}): Promise<void> {
  const op = opts.operation ?? 'queue';
  let client: Redis;
  try {
    client = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
      connectTimeout: opts.timeoutMs ?? 5000,
    });
  } catch (err) {
    throw explain(op, url, err as Error);
  }
  // The cause (ECONNREFUSED, NOAUTH...) comes as an 'error' event; connect() then only says "Connection is closed".
  let cause: Error | undefined;
  client.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw explain(op, url, cause ?? (err as Error));
  } finally {
    client.disconnect();
  }
}

/**
 * A long-lived connection for BullMQ (`maxRetriesPerRequest: null`, as its workers need), after
 * {@link checkRedis} found Redis there: a later outage is then retried, with errors passed to `onError`.
 */
export async function connectRedis(
  url: string,
  opts: CheckRedisOptions & { onError?: ((err: QueueConnectionError) => void) | undefined } = {},
): Promise<Redis> {
  await checkRedis(url, opts);
  const client = new Redis(url, { maxRetriesPerRequest: null });
  client.on('error', (err) => opts.onError?.(explain(opts.operation ?? 'queue', url, err)));
  return client;
}

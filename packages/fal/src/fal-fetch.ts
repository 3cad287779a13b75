import { z } from 'zod';
import { explainStatus, FalError, formatFalDetail } from './fal-error.js';

/** How failed calls to fal are retried: exponential backoff, no jitter (deterministic). */
export const FalRetryOptions = z
  .object({
    /** Retries after the first attempt. @default 5 */
    maxRetries: z.number().int().min(0).default(5),
    /** First delay, ms; doubles each retry. @default 1000 */
    baseDelayMs: z.number().min(0).default(1000),
    /** Longest delay, ms (also caps a server's Retry-After). @default 30000 */
    maxDelayMs: z.number().min(0).default(30_000),
    /** Statuses worth another try. @default [408, 429, 500, 502, 503, 504] */
    retryStatuses: z.array(z.number().int()).default([408, 429, 500, 502, 503, 504]),
  })
  .strict();
/** Retry options, defaults filled. */
export type FalRetryOptions = z.output<typeof FalRetryOptions>;

/** One retry about to happen (for progress output). */
export interface FalRetryInfo {
  /** What was being done: `submit`, `status`, `result`, `cancel`, `upload`, `download`... */
  op: string;
  /** 1 for the first retry. */
  attempt: number;
  /** The HTTP status that failed, 0 for a network error. */
  status: number;
  delayMs: number;
}

/** Options of {@link createFalFetch}. */
export interface FalFetchOptions {
  /** The fetch underneath. @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * Sends every request for a fal host (`*.fal.run`, `*.fal.ai`, `*.fal.media`) to this origin
   * instead, as `<baseUrl>/<host><path>`: a local test server or a proxy. Unset: fal itself.
   */
  baseUrl?: string | undefined;
  retry?: z.input<typeof FalRetryOptions> | undefined;
  /** Aborts the calls that carry no signal of their own (the client's storage uploads). */
  signal?: AbortSignal | undefined;
  onRetry?: ((info: FalRetryInfo) => void) | undefined;
}

const FAL_HOST = /(^|\.)fal\.(ai|run|media)$/;

/** The operation a request to fal performs, from its method and URL (for messages). */
export function falOperation(method: string, url: URL): string {
  const m = method.toUpperCase();
  if (url.pathname.includes('/storage/upload/initiate')) return 'upload (initiate)';
  if (url.hostname.startsWith('queue.')) {
    if (m === 'POST') return 'submit';
    if (m === 'PUT' && url.pathname.endsWith('/cancel')) return 'cancel';
    if (url.pathname.endsWith('/status')) return 'status';
    if (url.pathname.includes('/requests/')) return 'result';
  }
  if (m === 'PUT') return 'upload';
  if (m === 'GET') return 'download';
  return m.toLowerCase();
}

function requestIdOf(url: URL): string {
  const m = /\/requests\/([^/]+)/.exec(url.pathname);
  return m ? decodeURIComponent(m[1] as string) : '';
}

function retryAfterMs(res: Response): number | undefined {
  const h = res.headers.get('retry-after');
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(h);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A `fetch` for `createFalClient({ fetch })`: it sees every call the client makes (queue
 * submit/status/result/cancel and the storage upload's initiate + PUT), retries 429 and 5xx
 * with exponential backoff (honouring Retry-After), and turns a final failure into a
 * {@link FalError} naming the operation, the status and fal's detail. Because the error is not
 * the client's own `ApiError`, the client adds no second layer of retries.
 *
 * ```ts
 * const client = createFalClient({ credentials: key, fetch: createFalFetch({ signal }) });
 * ```
 */
export function createFalFetch(opts: FalFetchOptions = {}): typeof fetch {
  const base = opts.fetch ?? globalThis.fetch;
  const retry = FalRetryOptions.parse(opts.retry ?? {});
  const origin = opts.baseUrl?.replace(/\/+$/, '');
  const falFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const original = new URL(input instanceof Request ? input.url : String(input));
    const target =
      origin && FAL_HOST.test(original.hostname)
        ? `${origin}/${original.hostname}${original.pathname}${original.search}`
        : original.toString();
    const method = (init.method ?? 'GET').toUpperCase();
    const op = falOperation(method, original);
    // a call's own signal wins (a cancel after Ctrl-C must still go out); calls the client
    // makes without one (the storage upload) take the run's signal
    const signal = init.signal ?? opts.signal;
    const where = `${original.hostname}${original.pathname}`;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await base(target, { ...init, signal: signal ?? null });
      } catch (err) {
        if (signal?.aborted) throw signal.reason ?? err;
        if (attempt >= retry.maxRetries) {
          throw new FalError(
            `fal ${op} ${where}: network error (${(err as Error).message}) after ${attempt + 1} attempts.`,
            0,
            (err as Error).message,
            requestIdOf(original),
            { cause: err },
          );
        }
        const delayMs = Math.min(retry.baseDelayMs * 2 ** attempt, retry.maxDelayMs);
        opts.onRetry?.({ op, attempt: attempt + 1, status: 0, delayMs });
        await sleep(delayMs, signal);
        continue;
      }
      if (res.ok) return res;
      if (retry.retryStatuses.includes(res.status) && attempt < retry.maxRetries) {
        await res.body?.cancel().catch(() => {});
        const delayMs = Math.min(
          retryAfterMs(res) ?? retry.baseDelayMs * 2 ** attempt,
          Math.max(retry.maxDelayMs, retry.baseDelayMs),
        );
        opts.onRetry?.({ op, attempt: attempt + 1, status: res.status, delayMs });
        await sleep(delayMs, signal);
        continue;
      }
      const detail = formatFalDetail(await readBody(res));
      const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : '';
      const shown = detail ? `:\n  ${detail.split('\n').join('\n  ')}` : '.';
      throw new FalError(
        `fal ${op} ${where}: HTTP ${res.status}${tries}: ${explainStatus(res.status)}${shown}`,
        res.status,
        detail,
        requestIdOf(original),
      );
    }
  };
  return falFetch as typeof fetch;
}

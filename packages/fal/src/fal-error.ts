/**
 * A failed call to fal: the operation, the HTTP status (0 for a network failure), fal's own
 * words (`detail`), and the request id when one exists. The message never holds the key.
 *
 * ```ts
 * try { await generateVideo(opts); } catch (e) { if (e instanceof FalError && e.status === 401) ... }
 * ```
 */
export class FalError extends Error {
  override name = 'FalError';
  constructor(
    message: string,
    /** The HTTP status; 0 when no response came (network failure, timeout, cancel). */
    readonly status: number,
    /** fal's explanation, as text (validation errors one per line). */
    readonly detail: string = '',
    /** The queue request id, when the failure concerns one. */
    readonly requestId: string = '',
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** One entry of a FastAPI/Pydantic validation error, as fal's 422 bodies carry them. */
interface FieldError {
  loc?: unknown[];
  msg?: unknown;
  type?: unknown;
}

/**
 * Turns an error body from fal into readable text: Pydantic `detail` lists become
 * `body.prompt: field required` lines; a string `detail` or `message` is used as is.
 */
export function formatFalDetail(body: unknown): string {
  if (body === null || body === undefined) return '';
  if (typeof body === 'string') return body.trim().slice(0, 2000);
  if (typeof body !== 'object') return String(body);
  const b = body as { detail?: unknown; message?: unknown; error?: unknown };
  const d = b.detail ?? b.message ?? b.error;
  if (typeof d === 'string') return d;
  if (Array.isArray(d)) {
    return d
      .map((e: FieldError) => {
        const loc = Array.isArray(e.loc) ? e.loc.join('.') : '';
        const msg = typeof e.msg === 'string' ? e.msg : JSON.stringify(e);
        return loc ? `${loc}: ${msg}` : msg;
      })
      .join('\n');
  }
  return JSON.stringify(body).slice(0, 2000);
}

/** What an HTTP status means for a fal call, in words a user can act on. */
export function explainStatus(status: number): string {
  if (status === 401 || status === 403)
    return 'fal rejected the API key (check FAL_KEY: it must be a valid key with access to this endpoint)';
  if (status === 404) return 'fal does not know this endpoint or request (check the model id or request id)';
  if (status === 422) return 'fal rejected the request as invalid';
  if (status === 429) return 'fal is rate limiting (too many requests)';
  if (status >= 500) return 'fal had a server error';
  return `fal answered HTTP ${status}`;
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FalRetryInfo } from '@mocap/fal';
import { createFalFetch, FalError, falOperation } from '@mocap/fal/internal';
import { describe, expect, it } from 'vitest';

describe('falOperation', () => {
  it('names what the client is doing from the method and URL', () => {
    const u = (s: string) => new URL(s);
    expect(falOperation('POST', u('https://queue.fal.run/fal-ai/wan/v2.2-a14b/image-to-video'))).toBe(
      'submit',
    );
    expect(falOperation('GET', u('https://queue.fal.run/fal-ai/wan/requests/abc/status?logs=1'))).toBe(
      'status',
    );
    expect(falOperation('GET', u('https://queue.fal.run/fal-ai/wan/requests/abc'))).toBe('result');
    expect(falOperation('PUT', u('https://queue.fal.run/fal-ai/wan/requests/abc/cancel'))).toBe('cancel');
    expect(
      falOperation('POST', u('https://rest.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3')),
    ).toBe('upload (initiate)');
    expect(falOperation('PUT', u('https://storage.example/x'))).toBe('upload');
    expect(falOperation('GET', u('https://v3.fal.media/files/x/out.mp4'))).toBe('download');
  });
});

describe('createFalFetch', () => {
  it('sends fal hosts to baseUrl as <base>/<host><path> and leaves other hosts alone', async () => {
    const seen: string[] = [];
    const fake = (async (url: string) => {
      seen.push(url);
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const f = createFalFetch({ fetch: fake, baseUrl: 'http://127.0.0.1:9/' });
    await f('https://queue.fal.run/fal-ai/x/requests/1/status?logs=1');
    await f('https://v3.fal.media/files/a/b.mp4');
    await f('http://127.0.0.1:9/upload/abc');
    expect(seen).toEqual([
      'http://127.0.0.1:9/queue.fal.run/fal-ai/x/requests/1/status?logs=1',
      'http://127.0.0.1:9/v3.fal.media/files/a/b.mp4',
      'http://127.0.0.1:9/upload/abc',
    ]);
  });

  it('honours Retry-After (seconds), capped by maxDelayMs, and doubles otherwise', async () => {
    let n = 0;
    const fake = (async () => {
      n++;
      if (n === 1) return new Response('', { status: 429, headers: { 'retry-after': '120' } });
      if (n === 2) return new Response('', { status: 503 });
      return new Response('ok', { status: 200 });
    }) as typeof fetch;
    const retries: FalRetryInfo[] = [];
    const f = createFalFetch({
      fetch: fake,
      retry: { baseDelayMs: 4, maxDelayMs: 25 },
      onRetry: (r) => retries.push(r),
    });
    const res = await f('https://queue.fal.run/a/b', { method: 'POST' });
    expect(await res.text()).toBe('ok');
    expect(retries.map((r) => [r.status, r.delayMs])).toEqual([
      [429, 25],
      [503, 8],
    ]);
  });

  it('retries a refused connection, then fails with status 0 and the cause', async () => {
    const http = createServer();
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    const port = (http.address() as AddressInfo).port;
    await new Promise<void>((r) => http.close(() => r()));
    const retries: FalRetryInfo[] = [];
    const f = createFalFetch({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { maxRetries: 2, baseDelayMs: 1 },
      onRetry: (r) => retries.push(r),
    });
    const err = (await f('https://queue.fal.run/a/b/requests/r9/status').catch(
      (e: unknown) => e,
    )) as FalError;
    expect(err).toBeInstanceOf(FalError);
    expect(err.status).toBe(0);
    expect(err.requestId).toBe('r9');
    expect(err.message).toMatch(
      /fal status queue\.fal\.run\/a\/b\/requests\/r9\/status: network error .* after 3 attempts/,
    );
    expect(retries.map((r) => r.status)).toEqual([0, 0]);
  });

  it('stops waiting for a retry as soon as it is aborted', async () => {
    const ac = new AbortController();
    const fake = (async () => {
      setTimeout(() => ac.abort(new Error('stop')), 5);
      return new Response('', { status: 503 });
    }) as typeof fetch;
    const f = createFalFetch({ fetch: fake, signal: ac.signal, retry: { baseDelayMs: 60_000 } });
    await expect(f('https://rest.fal.ai/storage/upload/initiate', { method: 'POST' })).rejects.toThrow(
      'stop',
    );
  });

  it('validates its retry options', () => {
    expect(() => createFalFetch({ retry: { maxRetries: -1 } })).toThrow();
  });
});

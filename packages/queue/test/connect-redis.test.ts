import { checkRedis, QueueConnectionError, redactUrl, startWorker } from '@mocap/queue';
import { freePort, startRedis, type TestRedis } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('checkRedis: a clear error naming the URL, at once', () => {
  let locked: TestRedis;
  let open: TestRedis;
  beforeAll(async () => {
    [locked, open] = await Promise.all([startRedis({ password: 's3cret' }), startRedis()]);
  });
  afterAll(async () => {
    await Promise.all([locked?.stop(), open?.stop()]);
  });

  it('passes on a running redis-server, with or without its password', async () => {
    await checkRedis(open.url);
    await checkRedis(`redis://:s3cret@127.0.0.1:${locked.port}`);
  });

  it('Redis down: names the URL and says it cannot be reached (no endless reconnects)', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const err = await checkRedis(url, { operation: 'worker' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueueConnectionError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^worker: Redis at ${url} cannot be reached: is redis-server running there\\? \\(.*ECONNREFUSED`,
      ),
    );
    // startWorker checks first, so a worker pointed at nothing fails the same way instead of hanging.
    await expect(startWorker({ url, version: 'x' })).rejects.toThrow(
      `worker: Redis at ${url} cannot be reached`,
    );
  });

  it('Redis requiring a password: says so; a wrong one: refused, the password never printed', async () => {
    const url = `redis://127.0.0.1:${locked.port}`;
    await expect(checkRedis(url)).rejects.toThrow(
      `queue: Redis at ${url} requires a password: give it in the URL (redis://:PASSWORD@host:port) (NOAUTH`,
    );
    const wrong = `redis://:guess@127.0.0.1:${locked.port}`;
    const err = (await checkRedis(wrong).catch((e: unknown) => e)) as QueueConnectionError;
    expect(err.message).toContain(
      `queue: Redis at redis://:***@127.0.0.1:${locked.port} refused the password`,
    );
    expect(err.message).not.toContain('guess');
    expect(err.url).toBe(`redis://:***@127.0.0.1:${locked.port}`);
  });

  it('redactUrl hides only the password', () => {
    expect(redactUrl('redis://user:pw@host:6380/2')).toBe('redis://user:***@host:6380/2');
    expect(redactUrl('redis://host:6379')).toBe('redis://host:6379');
  });
});

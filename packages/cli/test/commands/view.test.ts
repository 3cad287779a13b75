import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { main } from '@mocap/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

// The page itself is tested in a real browser in apps/viewer/test/serve-viewer.test.ts.
describe('mocap view', () => {
  let dir = '';
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cli-view-'));
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => taken.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('a port in use: says so, suggests --port, exit code 1', async () => {
    const r = await runCli(['view', dir, '--port', String(port)]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`view: port ${port} on 127.0.0.1 is in use; pass --port N for another`);
  });

  it('usage errors: no folder, a bad port', async () => {
    expect((await runCli(['view'])).code).toBe(2);
    const r = await runCli(['view', dir, '--port', 'http']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--port: expected a port 0..65535, got "http"');
  });

  it('serves on 127.0.0.1 and prints the URL; a folder without motion.json is an error the page shows', async () => {
    const stop = new AbortController();
    let body: unknown = null;
    let err = '';
    const stdout = new Writable({
      write(chunk, _enc, cb) {
        const url = String(chunk).trim();
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
        fetch(`${url}api/view`)
          .then((res) => res.json())
          .then((json) => {
            body = json;
          })
          .finally(() => stop.abort());
        cb();
      },
    });
    const stderr = new Writable({
      write(chunk, _enc, cb) {
        err += String(chunk);
        cb();
      },
    });
    const code = await main(['view', dir, '--port', '0'], { stdout, stderr, signal: stop.signal, env: {} });
    expect(code).toBe(0);
    expect(body).toEqual({ error: expect.stringContaining(`${path.join(dir, 'motion.json')}: missing`) });
    expect(err).toContain('(the page shows it too)');
  });
});

// A real redis-server on 127.0.0.1 on a free port, for the queue and CLI worker tests (Debian's redis-server).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A port nothing listens on now (the OS picks it). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** A running redis-server: its URL, and `stop()`. */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts `redis-server` on 127.0.0.1 on a free port, without persistence, in a temporary folder;
 * `password` makes it require one. Resolves once it accepts connections.
 */
export async function startRedis(opts: { password?: string } = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'mocap-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ];
  if (opts.password) args.push('--requirepass', opts.password);
  const child: ChildProcess = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      log += String(d);
      if (log.includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) =>
      reject(new Error(`redis-server exited with ${code} before it was ready:\n${log}`)),
    );
  });
  child.stdout?.resume();
  child.stderr?.resume();
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

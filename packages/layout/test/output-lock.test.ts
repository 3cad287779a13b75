import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockOutput, withOutputLock } from '@mocap/layout';
import { OutputLockedError, OutputLockHolder, outputLockFile } from '@mocap/layout/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const HELPER = fileURLToPath(new URL('./helpers/hold-lock.ts', import.meta.url));

interface Writer {
  child: ChildProcess;
  /** Resolves on the writer's first stdout line (`locked <pid>`), or when it exits first. */
  locked: Promise<void>;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>;
}

/** A real writer process: `hold-lock.ts <dir> <count> <every> [wait]` through tsx, on the sources. */
function writer(dir: string, count: number, every: number, waitMs = 0): Writer {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@mocap/source',
      '--import',
      'tsx',
      HELPER,
      dir,
      String(count),
      String(every),
      String(waitMs),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  let onLine = () => {};
  const locked = new Promise<void>((resolve) => {
    onLine = resolve;
  });
  child.stdout?.on('data', (d) => {
    out += String(d);
    if (out.includes('\n')) onLine();
  });
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>(
    (resolve) =>
      child.on('exit', (code, signal) => {
        onLine();
        resolve({ code, signal, out, err });
      }),
  );
  return { child, locked, exit };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lockOutput between processes (real node processes writing one folder)', () => {
  let base = '';
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'mocap-lock-'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('a second run started 0-3 s after the first is refused, naming the first; the first completes', async () => {
    // Three folders side by side, the second writer 0, 1.5 and 3 s after the first took the lock.
    await Promise.all(
      [0, 1500, 3000].map(async (gapMs) => {
        const dir = path.join(base, `out-${gapMs}`);
        const first = writer(dir, 60, 150);
        await first.locked;
        await pause(gapMs);
        const second = writer(dir, 60, 150);
        const [a, b] = await Promise.all([first.exit, second.exit]);
        expect(a.code, a.err).toBe(0);
        expect(a.out).toContain('done');
        expect(b.code, `${gapMs} ms: ${b.out}`).toBe(3);
        const pid = first.child.pid;
        expect(b.err).toContain(
          `OutputLockedError: test-writer: ${path.resolve(dir)} is being written by another`,
        );
        expect(b.err).toContain(`test-writer run pid ${pid} on host ${hostname()}, started 20`);
        expect(b.err).toContain(HELPER);
        expect(b.err).toContain(`if that run is gone, remove ${outputLockFile(dir)}.`);
        expect(a.err + b.err).not.toContain('ENOENT');
        // Only the first run's files, all of them, no temporaries left; the lock is gone.
        const files = (await readdir(dir)).sort();
        expect(files).toEqual([...Array(60).keys()].map((i) => `part-${i}.txt`).sort());
        for (const f of files) {
          expect((await readFile(path.join(dir, f), 'utf8')).split(' ')[0]).toBe(String(pid));
        }
        expect(existsSync(outputLockFile(dir))).toBe(false);
      }),
    );
  }, 120_000);

  it('with waitMs the second run waits for the first, then writes', async () => {
    const dir = path.join(base, 'wait');
    const first = writer(dir, 10, 100);
    await first.locked;
    const second = writer(dir, 3, 10, 60_000);
    const [a, b] = await Promise.all([first.exit, second.exit]);
    expect([a.code, b.code], a.err + b.err).toEqual([0, 0]);
    expect(await readFile(path.join(dir, 'part-0.txt'), 'utf8')).toBe(`${second.child.pid} 0\n`);
    expect(await readFile(path.join(dir, 'part-9.txt'), 'utf8')).toBe(`${first.child.pid} 9\n`);
  }, 120_000);

  it('takes over the lock of a run killed with SIGKILL (its pid is dead on this host)', async () => {
    const dir = path.join(base, 'killed');
    const first = writer(dir, 1000, 100);
    await first.locked;
    first.child.kill('SIGKILL');
    const a = await first.exit;
    expect(a.signal).toBe('SIGKILL');
    const stale = OutputLockHolder.parse(JSON.parse(await readFile(outputLockFile(dir), 'utf8')));
    expect(stale.pid).toBe(first.child.pid);
    const second = writer(dir, 3, 10);
    const b = await second.exit;
    expect(b.code, b.err).toBe(0);
    expect(await readFile(path.join(dir, 'part-0.txt'), 'utf8')).toBe(`${second.child.pid} 0\n`);
    expect(existsSync(outputLockFile(dir))).toBe(false);
  }, 120_000);
});

describe('lockOutput in one process', () => {
  let base = '';
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'mocap-lock-'));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('writes the holder beside the folder and is re-entrant (capture holds it while apply takes it)', async () => {
    const dir = path.join(base, 'capture', 'trot');
    const file = outputLockFile(dir);
    expect(file).toBe(path.join(base, 'capture', '.trot.lock'));
    const outer = await lockOutput(dir, { operation: 'capture' });
    const holder = OutputLockHolder.parse(JSON.parse(await readFile(file, 'utf8')));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), operation: 'capture' });
    expect(Number.isNaN(Date.parse(holder.started))).toBe(false);
    const inner = await withOutputLock(dir, { operation: 'apply' }, async () => existsSync(file));
    expect(inner).toBe(true);
    // The nested release leaves the outer holder's lock; the outer one removes it, twice is harmless.
    expect(existsSync(file)).toBe(true);
    await outer.release();
    await outer.release();
    expect(existsSync(file)).toBe(false);
  });

  it("refuses a live run's lock from another host, saying its liveness cannot be checked here", async () => {
    const dir = path.join(base, 'remote');
    await mkdir(base, { recursive: true });
    const other: OutputLockHolder = {
      pid: 4242,
      host: 'render-box-2',
      command: 'node mocap dataset --count 2000',
      started: '2026-12-04T10:00:00.000Z',
      operation: 'dataset',
      token: 'abc',
    };
    await writeFile(outputLockFile(dir), JSON.stringify(other));
    const err = await lockOutput(dir, { operation: 'dataset', waitMs: 120, pollMs: 20 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutputLockedError);
    expect((err as OutputLockedError).holder).toEqual(other);
    expect((err as Error).message).toContain(
      'dataset run pid 4242 on host render-box-2, started 2026-12-04T10:00:00.000Z',
    );
    expect((err as Error).message).toContain(
      '(another host: whether it still runs cannot be checked from here)',
    );
    // A refused run leaves the holder's lock as it was.
    expect(JSON.parse(await readFile(outputLockFile(dir), 'utf8'))).toEqual(other);
  });

  it('names a lock file it cannot read as one', async () => {
    const dir = path.join(base, 'garbled');
    await writeFile(outputLockFile(dir), 'not json');
    await expect(lockOutput(dir, { operation: 'train' })).rejects.toThrow(
      `train: ${outputLockFile(dir)}: not a lock file`,
    );
  });

  it('stops waiting when its signal aborts', async () => {
    const dir = path.join(base, 'abort');
    // Held by another process: within this one the lock is re-entrant.
    const child = writer(dir, 1000, 100);
    await child.locked;
    const ac = new AbortController();
    const waiting = lockOutput(dir, { operation: 'exam', waitMs: 60_000, pollMs: 20, signal: ac.signal });
    ac.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
    child.child.kill('SIGKILL');
    await child.exit;
  }, 60_000);
});

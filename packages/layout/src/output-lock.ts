import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { FileError } from './file-error.js';

/** Who holds an output folder: the content of its lock file (`<parent>/.<folder>.lock`). */
export const OutputLockHolder = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  /** The holder's command line. */
  command: z.string(),
  /** ISO 8601 time the holder took the lock. */
  started: z.string(),
  /** The operation that writes the folder (`capture`, `dataset`, ...). */
  operation: z.string(),
  /** Tells one taking of the lock from another, so a stale lock is only removed once. */
  token: z.string(),
});
export type OutputLockHolder = z.infer<typeof OutputLockHolder>;

/** Options of {@link lockOutput}. */
export interface LockOutputOptions {
  /** The stage, for messages and the lock file (`capture`, `dataset`, ...). */
  operation: string;
  /** How long to wait for another run to finish before refusing, in ms. @default 0 (refuse at once) */
  waitMs?: number | undefined;
  /** How often to look again while waiting, in ms. @default 250 */
  pollMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** A held lock on an output folder; `release()` is idempotent. */
export interface OutputLock {
  readonly dir: string;
  readonly file: string;
  release(): Promise<void>;
}

/** Another run holds the output folder. */
export class OutputLockedError extends Error {
  override name = 'OutputLockedError';
  constructor(
    message: string,
    /** The lock file. */
    readonly file: string,
    readonly holder: OutputLockHolder,
  ) {
    super(message);
  }
}

// Locks this process holds, by lock file: a stage nested in another (capture -> apply) on the same folder shares it.
const held = new Map<string, { count: number; token: string }>();

/** The lock file of `dir`: beside it, so it is neither one of the folder's outputs nor its temporaries. */
export function outputLockFile(dir: string): string {
  const abs = path.resolve(dir);
  return path.join(path.dirname(abs), `.${path.basename(abs)}.lock`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(op: string, file: string): Promise<OutputLockHolder | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const parsed = OutputLockHolder.safeParse(data);
  if (!parsed.success) {
    throw new FileError(
      `${op}: ${file}: not a lock file (${text.length} bytes, not the holder's pid, host, command and start); remove it if no run writes this folder.`,
      file,
    );
  }
  return parsed.data;
}

function describe(h: OutputLockHolder): string {
  const ago = Math.round((Date.now() - Date.parse(h.started)) / 1000);
  return `${h.operation} run pid ${h.pid} on host ${h.host}, started ${h.started} (${ago} s ago): ${h.command}`;
}

// Moves a stale lock aside and removes it only if it is still the one judged stale; else puts it back.
async function takeOver(file: string, stale: OutputLockHolder): Promise<void> {
  const aside = `${file}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const moved = await readHolder('lock', aside).catch(() => null);
  if (moved?.token !== stale.token) await link(aside, file).catch(() => {});
  await unlink(aside);
}

/**
 * Takes the lock on output folder `dir` so that two runs never write it at once (two workers, or
 * a person running one command twice). The lock file `<parent>/.<folder>.lock` names the holder
 * (pid, host, command, start time); it is created with a hard link, atomic on local and network
 * file systems. Another live run's lock makes this wait up to `waitMs`, then throw
 * {@link OutputLockedError} naming that run; a lock whose pid is dead on this host is taken over.
 * Within one process the lock is re-entrant (capture holds it while apply takes it again).
 *
 * ```ts
 * const lock = await lockOutput('creatures/wolf/runs/dataset', { operation: 'dataset' });
 * try { ... } finally { await lock.release(); }
 * ```
 */
export async function lockOutput(dir: string, opts: LockOutputOptions): Promise<OutputLock> {
  const op = opts.operation;
  const file = outputLockFile(dir);
  const mine = held.get(file);
  if (mine) {
    mine.count++;
    return handle(dir, file, mine.token);
  }
  await mkdir(path.dirname(file), { recursive: true });
  const me: OutputLockHolder = {
    pid: process.pid,
    host: hostname(),
    command: process.argv.join(' '),
    started: new Date().toISOString(),
    operation: op,
    token: randomBytes(8).toString('hex'),
  };
  const draft = `${file}.new-${process.pid}-${me.token}`;
  await writeFile(draft, `${JSON.stringify(me, null, 2)}\n`);
  const deadline = Date.now() + (opts.waitMs ?? 0);
  try {
    for (;;) {
      opts.signal?.throwIfAborted();
      try {
        await link(draft, file);
        held.set(file, { count: 1, token: me.token });
        return handle(dir, file, me.token);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const other = await readHolder(op, file);
      if (!other) continue;
      if (other.host === me.host && (other.pid === process.pid || !alive(other.pid))) {
        await takeOver(file, other);
        continue;
      }
      if (Date.now() >= deadline) {
        const remote =
          other.host === me.host ? '' : ' (another host: whether it still runs cannot be checked from here)';
        throw new OutputLockedError(
          `${op}: ${path.resolve(dir)} is being written by another ${describe(other)}${remote}. ` +
            `Wait for it to finish or write elsewhere; if that run is gone, remove ${file}.`,
          file,
          other,
        );
      }
      await sleep(Math.min(opts.pollMs ?? 250, Math.max(1, deadline - Date.now())), undefined, {
        signal: opts.signal,
      });
    }
  } finally {
    await unlink(draft).catch(() => {});
  }
}

function handle(dir: string, file: string, token: string): OutputLock {
  let done = false;
  return {
    dir,
    file,
    async release() {
      if (done) return;
      done = true;
      const mine = held.get(file);
      if (!mine || mine.token !== token || --mine.count > 0) return;
      held.delete(file);
      // Only our own lock is removed: a lock taken over meanwhile belongs to its new holder.
      const now = await readHolder('release', file).catch(() => null);
      if (now?.token === token) await unlink(file).catch(() => {});
    },
  };
}

/**
 * Runs `fn` holding the lock on output folder `dir` ({@link lockOutput}), released however `fn` ends.
 *
 * ```ts
 * await withOutputLock(out, { operation: 'capture' }, () => captureInto(out));
 * ```
 */
export async function withOutputLock<T>(
  dir: string,
  opts: LockOutputOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const lock = await lockOutput(dir, opts);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

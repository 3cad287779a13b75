import type { BlenderProgress, BlenderRunOptions } from '@mocap/blender-bridge';
import { creatureDir } from '@mocap/layout';
import { type CommandContext, UsageError } from '../command.js';
import { rateEta } from './count-progress.js';

const WIDTH = 24;

/**
 * A progress bar line for a Blender stage: `[#####-----]  3/8  render`, then `eta` (e.g.
 * {@link rateEta}'s `, 2.1/s, eta 0:12`).
 */
export function progressLine(p: BlenderProgress, eta = ''): string {
  const f = p.total > 0 ? Math.min(1, p.done / p.total) : 0;
  const fill = Math.round(f * WIDTH);
  const n = String(p.total).length;
  return `[${'#'.repeat(fill)}${'-'.repeat(WIDTH - fill)}] ${String(p.done).padStart(n)}/${p.total}  ${p.stage}${eta}`;
}

/** A stage shows its rate and time left once it has run this long, s (instant stages never do). */
const ETA_AFTER_S = 1;

/**
 * Progress bars on stderr for Blender stages, with each stage's rate and time left (counted from
 * its first report, shown once it has run {@link ETA_AFTER_S}): redrawn in place on a terminal,
 * one line per tenth (and per stage change) otherwise. `now` is the clock, ms.
 */
export function blenderProgress(stderr: NodeJS.WritableStream, now: () => number = () => performance.now()) {
  const tty = (stderr as NodeJS.WriteStream).isTTY === true;
  let lastKey = '';
  let open = false;
  let stage = '';
  let started = 0;
  let from = 0;
  return {
    onProgress(p: BlenderProgress) {
      if (p.stage !== stage) {
        stage = p.stage;
        started = now();
        from = p.done;
      }
      const seconds = (now() - started) / 1000;
      const line = progressLine(p, seconds >= ETA_AFTER_S ? rateEta(p.done, p.total, seconds, '', from) : '');
      if (tty) {
        stderr.write(`\r${line}\u001b[K`);
        open = true;
        return;
      }
      const tenth = p.total > 0 ? Math.floor((10 * p.done) / p.total) : 0;
      const key = `${p.stage}:${tenth}`;
      if (key !== lastKey) stderr.write(`${line}\n`);
      lastKey = key;
    },
    /** Ends the bar's line (call before printing anything else). */
    end() {
      if (open) stderr.write('\n');
      open = false;
    },
  };
}

/** The creature folder from `--creature` or `MOCAP_CREATURE`; a usage error when neither is set. */
export function requireCreature(value: string | undefined, ctx: CommandContext): string {
  const dir = creatureDir({ creature: value, env: ctx.env, cwd: ctx.cwd });
  if (!dir) throw new UsageError('no creature: pass --creature DIR or set MOCAP_CREATURE.');
  return dir;
}

/** Parses `--timeout SEC` into the options every Blender stage takes (signal, env, timeout, progress). */
export function blenderOptions(
  ctx: CommandContext,
  timeout: string | undefined,
  onProgress: (p: BlenderProgress) => void,
): BlenderRunOptions {
  let timeoutMs: number | undefined;
  if (timeout !== undefined) {
    const s = Number(timeout);
    if (!(s > 0)) throw new UsageError(`--timeout: Expected seconds > 0, got "${timeout}".`);
    timeoutMs = Math.round(s * 1000);
  }
  return { env: ctx.env, signal: ctx.signal, onProgress, ...(timeoutMs ? { timeoutMs } : {}) };
}

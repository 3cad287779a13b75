/** Counts of at least this many items get a progress line per tenth in a log (stderr not a terminal). */
const LOG_EVERY_TENTH = 100;

/** Seconds as `m:ss` (or `h:mm:ss`). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const mm = String(Math.floor(s / 60) % 60);
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm.padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * The rate and the time left of a count, `, 5.2 frames/s, eta 0:41` (`, 5.2/s, ...` without a unit): `done` of `total`, `from` of
 * them done when the clock started `seconds` ago; empty while nothing was counted on the clock
 * and after the last (nothing to estimate or left).
 */
export function rateEta(done: number, total: number, seconds: number, unit = 'frames', from = 0): string {
  const rate = (done - from) / seconds;
  if (!(done > from && done < total && seconds > 0 && Number.isFinite(rate))) return '';
  return `, ${rate.toFixed(1)}${unit ? ` ${unit}` : ''}/s, eta ${clock((total - done) / rate)}`;
}

/**
 * A counted stage's progress on stderr (`detect + refine 30/300 frames, 5.2 frames/s, eta 0:52`):
 * redrawn in place on a terminal; in a log, a line per tenth of a count of
 * {@link LOG_EVERY_TENTH} or more, then the total. The rate counts the items after the stage's
 * first update over the time since; a new `what`, or a count that goes back (a stage started
 * again, as detect does on a clip whose views turn out not in step), starts the clock again.
 */
export function countProgress(stderr: NodeJS.WritableStream, unit = 'frames') {
  const tty = (stderr as { isTTY?: boolean }).isTTY === true;
  let stage = '';
  let started = 0;
  let from = 0;
  let last = 0;
  let tenth = 0;
  let open = false;
  return {
    update(what: string, done: number, total: number): void {
      if (what !== stage || done < last) {
        stage = what;
        started = performance.now();
        from = done;
        tenth = total > 0 ? Math.floor((10 * done) / total) : 0;
      }
      last = done;
      const eta = rateEta(done, total, (performance.now() - started) / 1000, unit, from);
      if (tty) {
        open = done !== total;
        stderr.write(`\r${what} ${done}/${total} ${unit}${eta}\u001b[K${open ? '' : '\n'}`);
      } else if (done === total) stderr.write(`${what}: ${total} ${unit}\n`);
      else if (total >= LOG_EVERY_TENTH && Math.floor((10 * done) / total) > tenth) {
        tenth = Math.floor((10 * done) / total);
        stderr.write(`${what} ${done}/${total} ${unit}${eta}\n`);
      }
    },
    /** Ends a terminal line left open (a count that stopped short of its total). */
    end(): void {
      if (open) stderr.write('\n');
      open = false;
    },
  };
}

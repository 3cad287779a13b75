import { ExecaError } from 'execa';
import { FfmpegError, tail } from './ffmpeg-error.js';

/** The last two non-empty lines of `text`, joined: ffmpeg often says what and why on two lines. */
function lastLines(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(-2).join('; ');
}

/**
 * Turns what an execa call of ffmpeg/ffprobe threw into an {@link FfmpegError} whose message
 * starts with `op` (e.g. `decodeVideo: clip.mp4`); other errors pass through unchanged.
 * @internal
 */
export function toFfmpegError(op: string, tool: string, err: unknown, timeoutMs?: number): unknown {
  if (err instanceof FfmpegError || !(err instanceof ExecaError)) return err;
  const stderr = typeof err.stderr === 'string' ? err.stderr : '';
  const stderrTail = tail(stderr);
  let why: string;
  if (err.timedOut) why = `timed out after ${timeoutMs ?? '?'} ms`;
  else if (err.isCanceled) why = 'aborted';
  else if (err.exitCode !== undefined) why = `exit code ${err.exitCode}`;
  else if (err.signal) why = `killed by ${err.signal}`;
  else why = err.originalMessage || err.shortMessage;
  const detail = lastLines(stderrTail);
  return new FfmpegError(
    `${op}: ${tool} failed (${why})${detail ? `: ${detail}` : ''}.`,
    {
      command: err.command,
      exitCode: err.exitCode,
      stderrTail,
      timedOut: err.timedOut === true,
      aborted: err.isCanceled === true,
    },
    { cause: err },
  );
}

/** What {@link FfmpegError} carries besides its message. */
export interface FfmpegErrorDetails {
  /** The command line that ran, arguments quoted where needed. */
  command: string;
  /** Exit code, undefined when the process was killed by a signal or did not start. */
  exitCode: number | undefined;
  /** The last lines of its stderr (at most about 2 kB). */
  stderrTail: string;
  /** True when it ran past its timeout. */
  timedOut: boolean;
  /** True when its AbortSignal was aborted. */
  aborted: boolean;
}

/**
 * A failed ffmpeg or ffprobe run: the operation, the command, the exit code, the tail of stderr,
 * and whether it timed out or was aborted; the original error is the `cause`.
 *
 * ```ts
 * try { await probeVideo('clip.mp4'); } catch (e) { if (e instanceof FfmpegError) console.error(e.stderrTail); }
 * ```
 */
export class FfmpegError extends Error implements FfmpegErrorDetails {
  override name = 'FfmpegError';
  readonly command: string;
  readonly exitCode: number | undefined;
  readonly stderrTail: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  constructor(message: string, details: FfmpegErrorDetails, options?: ErrorOptions) {
    super(message, options);
    this.command = details.command;
    this.exitCode = details.exitCode;
    this.stderrTail = details.stderrTail;
    this.timedOut = details.timedOut;
    this.aborted = details.aborted;
  }
}

/** The last `max` characters of `text`, cut at a line start, trimmed. */
export function tail(text: string, max = 2000): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(-max);
  const nl = cut.indexOf('\n');
  return nl >= 0 ? cut.slice(nl + 1) : cut;
}

/** What went wrong when driving Blender. */
export type BlenderErrorKind = 'not-found' | 'version' | 'exit' | 'timeout' | 'cancelled' | 'protocol';

/** Fields of a {@link BlenderError} besides its message. */
export interface BlenderErrorDetails {
  kind: BlenderErrorKind;
  /** The Python script that ran (file name), or null when Blender itself could not be used. */
  script?: string | null;
  /** Blender's exit code, when it exited. */
  exitCode?: number | null;
  /** The last lines of Blender's stderr. */
  stderrTail?: string;
  /** The Python traceback the script printed, when it failed with one. */
  traceback?: string | null;
  cause?: unknown;
}

/**
 * The one error every Blender failure raises: Blender missing or too old, a script that failed
 * (with its Python traceback), a timeout, a cancellation, or a script result that did not validate.
 *
 * ```ts
 * try { await buildRig({ creature: 'creatures/wolf' }); }
 * catch (e) { if (e instanceof BlenderError) console.error(e.script, e.exitCode, e.traceback); }
 * ```
 */
export class BlenderError extends Error {
  override name = 'BlenderError';
  readonly kind: BlenderErrorKind;
  readonly script: string | null;
  readonly exitCode: number | null;
  readonly stderrTail: string;
  readonly traceback: string | null;

  constructor(message: string, details: BlenderErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = details.kind;
    this.script = details.script ?? null;
    this.exitCode = details.exitCode ?? null;
    this.stderrTail = details.stderrTail ?? '';
    this.traceback = details.traceback ?? null;
  }

  /** True when the run hit its timeout. */
  get timedOut(): boolean {
    return this.kind === 'timeout';
  }

  /** True when the run was cancelled through its AbortSignal. */
  get cancelled(): boolean {
    return this.kind === 'cancelled';
  }
}

/** The last `maxLines` non-empty lines of `text`, without Blender's EGL noise. */
export function stderrTail(text: string, maxLines = 20): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.startsWith('EGL Error'));
  return lines.slice(-maxLines).join('\n');
}

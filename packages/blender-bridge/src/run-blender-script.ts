import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { z } from 'zod';
import { BlenderError, stderrTail } from './blender-error.js';
import { type BlenderInfo, findBlender } from './find-blender.js';

/** The folder holding the bundled Python scripts. */
export const PYTHON_DIR: string = fileURLToPath(new URL('../python/', import.meta.url));

/** One progress report of a Blender script. */
export interface BlenderProgress {
  /** The script reporting, e.g. `render_dataset.py`. */
  script: string;
  /** What it is doing, e.g. `render`. */
  stage: string;
  done: number;
  total: number;
  /** Any further fields the script sent (frame, index, ...). */
  [key: string]: unknown;
}

/** Options shared by every call that runs Blender. */
export interface BlenderRunOptions {
  /** A found Blender, or an executable path; otherwise {@link findBlender} picks one. */
  blender?: BlenderInfo | string | undefined;
  /** Environment (for `BLENDER`). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Kill Blender after this many ms. @default 600000 (the dataset and apply stages scale theirs with the work) */
  timeoutMs?: number | undefined;
  /** Aborting it kills Blender and rejects with a cancelled {@link BlenderError}. */
  signal?: AbortSignal | undefined;
  /** Called for every progress line the script prints. */
  onProgress?: ((p: BlenderProgress) => void) | undefined;
}

const MARK = '@mocap ';

async function resolveBlender(opts: BlenderRunOptions): Promise<BlenderInfo> {
  if (opts.blender && typeof opts.blender !== 'string') return opts.blender;
  return findBlender({ blender: opts.blender, ...(opts.env ? { env: opts.env } : {}), signal: opts.signal });
}

/**
 * Runs `blender -b --factory-startup --python <script> -- <args.json>` (`script`: a file of
 * {@link PYTHON_DIR}, or an absolute path) and returns the script's
 * result, validated with `schema`. The script reports progress and its result as `@mocap {json}`
 * lines on stdout (see python/mocap_blender.py). Any failure is a {@link BlenderError} carrying
 * the script, exit code, stderr tail and Python traceback.
 *
 * ```ts
 * const r = await runBlenderScript('prep_mesh.py', { model, out, prep }, PrepResult, { timeoutMs: 60_000 });
 * ```
 */
export async function runBlenderScript<S extends z.ZodType>(
  script: string,
  args: unknown,
  schema: S,
  opts: BlenderRunOptions = {},
): Promise<z.output<S>> {
  const blender = await resolveBlender(opts);
  const dir = await mkdtemp(path.join(tmpdir(), 'mocap-blender-'));
  const argsFile = path.join(dir, 'args.json');
  await writeFile(argsFile, JSON.stringify(args));
  let result: unknown;
  let failure: { message?: string; traceback?: string } | undefined;
  let pending = '';
  const onLine = (line: string) => {
    if (!line.startsWith(MARK)) return;
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line.slice(MARK.length)) as Record<string, unknown>;
    } catch {
      return;
    }
    const { event, ...fields } = msg;
    if (event === 'progress') {
      opts.onProgress?.({
        ...fields,
        script,
        stage: String(fields.stage),
        done: Number(fields.done),
        total: Number(fields.total),
      });
    } else if (event === 'result') result = fields;
    else if (event === 'error') failure = fields as typeof failure;
  };
  try {
    const sub = execa(
      blender.path,
      [
        '-b',
        '--factory-startup',
        '--python-exit-code',
        '1',
        '--python',
        path.isAbsolute(script) ? script : path.join(PYTHON_DIR, script),
        '--',
        argsFile,
      ],
      {
        reject: false,
        stdin: 'ignore',
        timeout: opts.timeoutMs ?? 600_000,
        forceKillAfterDelay: 3000,
        ...(opts.signal ? { cancelSignal: opts.signal } : {}),
        env: { PYTHONDONTWRITEBYTECODE: '1', MOCAP_PYTHON_DIR: PYTHON_DIR },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    sub.stdout?.setEncoding('utf8');
    sub.stdout?.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) onLine(l.replace(/\r$/, ''));
    });
    const r = await sub;
    if (pending) onLine(pending);
    // Blender prints its own errors (a script it cannot open, a crash) on stdout.
    const stdoutErrors = String(r.stdout ?? '')
      .split('\n')
      .filter((l) => /^(Error|Traceback)/.test(l));
    const tail = stderrTail([String(r.stderr ?? ''), ...stdoutErrors].join('\n'));
    const base = {
      script,
      exitCode: r.exitCode ?? null,
      stderrTail: tail,
      traceback: failure?.traceback ?? null,
      cause: r,
    };
    if (r.isCanceled)
      throw new BlenderError(`blender: ${script} was cancelled.`, { ...base, kind: 'cancelled' });
    if (r.timedOut) {
      throw new BlenderError(`blender: ${script} timed out after ${opts.timeoutMs ?? 600_000} ms.`, {
        ...base,
        kind: 'timeout',
      });
    }
    if (r.failed || failure) {
      const why = failure?.message ?? (tail.split('\n').pop() || r.shortMessage);
      throw new BlenderError(`blender: ${script} failed (exit code ${r.exitCode ?? 'none'}): ${why}`, {
        ...base,
        kind: 'exit',
      });
    }
    if (result === undefined) {
      throw new BlenderError(`blender: ${script} exited without reporting a result.`, {
        ...base,
        kind: 'protocol',
      });
    }
    const parsed = schema.safeParse(result);
    if (!parsed.success) {
      throw new BlenderError(
        `blender: ${script} reported a result that does not validate: ${parsed.error.message}`,
        {
          ...base,
          kind: 'protocol',
          cause: parsed.error,
        },
      );
    }
    return parsed.data;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// Runs the `mocap` command line in-process with captured output, for the CLI's tests.
import { Writable } from 'node:stream';
import { main } from '@mocap/cli';

/** What one run of the CLI gave: exit code, stdout and stderr text. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

function sink(add: (s: string) => void): Writable {
  return new Writable({
    write(chunk, _enc, cb) {
      add(String(chunk));
      cb();
    },
  });
}

/** Runs `mocap <argv>` with `env` (none by default) in the current folder. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
  signal?: AbortSignal,
): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: sink((s) => {
      out += s;
    }),
    stderr: sink((s) => {
      err += s;
    }),
    env,
    cwd: process.cwd(),
    ...(signal ? { signal } : {}),
  });
  return { code, out, err };
}

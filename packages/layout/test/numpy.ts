// Finds a Python with NumPy (Debian's python3-numpy is for /usr/bin/python3; a pyenv python3 on
// PATH may lack it) and runs a script in it.
import { execFileSync } from 'node:child_process';

let found: string | undefined;

/** A python3 that can `import numpy`; throws when there is none (the setup installs python3-numpy). */
function numpyPython(): string {
  if (found) return found;
  for (const exe of ['/usr/bin/python3', 'python3']) {
    try {
      execFileSync(exe, ['-c', 'import numpy'], { stdio: 'ignore' });
      found = exe;
      return exe;
    } catch {}
  }
  throw new Error('No python3 with NumPy: install Debian python3-numpy (scripts/setup.sh does).');
}

/** Runs `code` in {@link numpyPython} with `args`, returning stdout. */
export function runPython(code: string, args: string[] = []): string {
  return execFileSync(numpyPython(), ['-c', code, ...args], { encoding: 'utf8' });
}

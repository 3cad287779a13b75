#!/usr/bin/env node
// `pnpm mocap`: runs the built CLI (packages/cli/dist/bin.js) in this process when every
// workspace package's build is newer than its sources; otherwise (a fresh clone, or sources edited
// since the last `pnpm build`) runs the TypeScript sources through tsx, which takes seconds more
// to start, and says why on stderr.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = path.join(root, 'packages');

/** Modification time of `file` in ms, or -1 when it is missing. */
function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/** The newest modification time of the files under `dir` (-1 when there are none). */
function newest(dir) {
  let latest = -1;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return latest;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    latest = Math.max(latest, e.isDirectory() ? newest(p) : mtime(p));
  }
  return latest;
}

/** Why the build cannot be used (a package not built, or built before its sources changed), else null. */
function staleBuild() {
  for (const name of readdirSync(packagesDir)) {
    const dir = path.join(packagesDir, name);
    if (mtime(path.join(dir, 'src')) < 0) continue;
    // Source-only packages (test fixtures) have no build to be stale.
    if (!JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts?.build) continue;
    const built = mtime(path.join(dir, 'dist', 'index.js'));
    if (built < 0) return `packages/${name} is not built`;
    const inputs = Math.max(
      newest(path.join(dir, 'src')),
      mtime(path.join(dir, 'package.json')),
      mtime(path.join(dir, 'tsup.config.ts')),
    );
    if (inputs > built) return `packages/${name} changed since its build`;
  }
  return null;
}

const stale = staleBuild();
if (stale === null) {
  await import(pathToFileURL(path.join(packagesDir, 'cli', 'dist', 'bin.js')).href);
} else {
  process.stderr.write(`mocap: ${stale}; running the sources through tsx (pnpm build starts faster)\n`);
  const child = spawn(
    process.execPath,
    [
      '--conditions=@mocap/source',
      '--import',
      import.meta.resolve('tsx'),
      path.join(packagesDir, 'cli', 'src', 'bin.ts'),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  // Ctrl-C reaches the child too (same process group); it stops cleanly, then this exits with it.
  process.on('SIGINT', () => {});
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1);
  });
}

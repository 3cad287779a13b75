import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../scripts/mocap.mjs', import.meta.url));

/** A package under `root/packages/name`: sources an hour old, and a build (when given) newer. */
async function pkg(root: string, name: string, o: { build: boolean; built: boolean; bin?: string }) {
  const dir = path.join(root, 'packages', name);
  await mkdir(path.join(dir, 'src'), { recursive: true });
  const old = new Date(Date.now() - 3_600_000);
  const json = { name, ...(o.build ? { scripts: { build: 'tsup' } } : {}) };
  for (const [file, text] of [
    ['package.json', JSON.stringify(json)],
    ['src/index.ts', 'export {};\n'],
  ] as const) {
    await writeFile(path.join(dir, file), text);
    await utimes(path.join(dir, file), old, old);
  }
  if (o.built) {
    await mkdir(path.join(dir, 'dist'), { recursive: true });
    await writeFile(path.join(dir, 'dist/index.js'), 'export {};\n');
    if (o.bin) await writeFile(path.join(dir, 'dist/bin.js'), o.bin);
  }
}

let root = '';
afterEach(() => rm(root, { recursive: true, force: true }));

describe('scripts/mocap.mjs (the root `mocap` script)', () => {
  it('runs the built CLI when every package with a build script is built, source-only ones aside', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'mocap-script-'));
    await mkdir(path.join(root, 'scripts'));
    await copyFile(script, path.join(root, 'scripts/mocap.mjs'));
    await pkg(root, 'cli', {
      build: true,
      built: true,
      bin: "process.stdout.write('built cli ' + process.argv.slice(2).join(' '));\n",
    });
    // A test-fixture package: sources only, nothing to build.
    await pkg(root, 'test-utils', { build: false, built: false });
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/mocap.mjs'), '--help'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('built cli --help');
    // A package with a build script and no build: the sources run instead, and it says why.
    await pkg(root, 'solver', { build: true, built: false });
    const stale = spawnSync(process.execPath, [path.join(root, 'scripts/mocap.mjs'), '--help'], {
      encoding: 'utf8',
    });
    expect(stale.stdout).not.toContain('built cli');
    expect(stale.stderr).toContain('mocap: packages/solver is not built; running the sources through tsx');
  });
});

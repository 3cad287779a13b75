import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function files(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir).sort()) {
    const p = path.join(dir, entry);
    if (entry === 'node_modules' || entry === '__pycache__') continue;
    if (statSync(p).isDirectory()) files(p, out);
    else out.push(p);
  }
  return out;
}

/** Where Node finds package `name` from folder `from`: the nearest node_modules/<name> up the tree. */
function findPackage(from: string, name: string): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const p = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(p, 'package.json'))) return p;
    if (path.dirname(dir) === dir) return null;
  }
}

/** `root` and the @mocap packages it depends on at run time, recursively (each once). */
function mocapPackages(root: string, seen = new Set<string>()): string[] {
  const real = realpathSync(root);
  if (seen.has(real)) return [];
  seen.add(real);
  const pkg = JSON.parse(readFileSync(path.join(real, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const deps = Object.keys(pkg.dependencies ?? {})
    .filter((d) => d.startsWith('@mocap/'))
    .sort()
    .map((d) => findPackage(real, d))
    .filter((d): d is string => d !== null);
  return [real, ...deps.flatMap((d) => mocapPackages(d, seen))];
}

let cached: string | undefined;

/**
 * The version of the code that runs jobs: `@mocap/queue@<version>+<hash>`, the hash (12 hex) over
 * this package and every @mocap package it runs (pipeline, blender-bridge with its Python scripts,
 * reader, solver, layout, media): their built `dist/` (or `src/` when run from source) and
 * package.json. Submitters stamp it on each job and workers refuse a job whose stamp differs, so a
 * machine with other code never writes into a shared run.
 *
 * ```ts
 * console.log(codeVersion()); // @mocap/queue@0.1.0+3f9a1c0d2b7e
 * ```
 */
export function codeVersion(): string {
  if (cached) return cached;
  const here = fileURLToPath(import.meta.url);
  const fromSource = here.endsWith('.ts');
  const root = path.resolve(path.dirname(here), '..');
  const hash = createHash('sha256');
  for (const pkg of mocapPackages(root)) {
    const parts = [fromSource ? 'src' : 'dist', 'python'].map((d) => path.join(pkg, d));
    for (const f of [path.join(pkg, 'package.json'), ...parts.flatMap((d) => files(d))]) {
      hash.update(path.relative(pkg, f));
      hash.update('\0');
      hash.update(readFileSync(f));
      hash.update('\0');
    }
  }
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  cached = `@mocap/queue@${version}+${hash.digest('hex').slice(0, 12)}`;
  return cached;
}

#!/usr/bin/env node
// Keeps each library's public API to what a user imports (issue 17), run by `pnpm lint`:
// - the runtime exports of each package's "." entry stay under a limit;
// - every name the entry exports (runtime) is referenced outside the package: by another
//   package's src/bench/test, apps/, scripts/, or a code block of a README (its own or another's).
//   Names only the package's own src or tests use belong in its "./internal" subpath.
// The entries are imported from src/ (`node --conditions=@mocap/source --import tsx`, as the lint
// script runs it), so no build is needed and a stale dist/ cannot hide a new export.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Most runtime exports of each package's "." entry: reader and solver as issue 17 asks, the
 * others just above their counts after its cut; a package not listed gets DEFAULT_LIMIT. */
const LIMITS = {
  'anim-loop': 28,
  'blender-bridge': 15,
  fal: 15,
  layout: 48,
  media: 32,
  pipeline: 12,
  reader: 60,
  'rig-propose': 5,
  solver: 35,
};
const DEFAULT_LIMIT = 40;
/** Packages whose index is not a user API: the CLI (an application) and the private test fixtures. */
const SKIP = new Set(['cli', 'test-utils']);
const CODE_DIRS = ['src', 'bench', 'test', 'web', 'scripts'];
const CODE_EXT = /\.(?:ts|tsx|mts|mjs|js)$/;

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (CODE_EXT.test(entry)) out.push(path);
  }
  return out;
}

/** Code files of a package or app folder (src, bench, test, web, scripts). */
function codeFiles(folder) {
  return CODE_DIRS.flatMap((d) => walk(join(folder, d)));
}

/** README.md files under a folder. */
function walkReadmes(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) walkReadmes(path, out);
    else if (entry === 'README.md') out.push(path);
  }
  return out;
}

/** The fenced code blocks of a README, joined. */
function readmeCode(path) {
  if (!existsSync(path)) return '';
  const blocks = readFileSync(path, 'utf8').match(/```[\s\S]*?```/g) ?? [];
  return blocks.join('\n');
}

const packagesDir = join(ROOT, 'packages');
const packages = readdirSync(packagesDir)
  .filter((name) => existsSync(join(packagesDir, name, 'package.json')))
  .map((dir) => {
    const json = JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8'));
    return { dir, name: json.name, folder: join(packagesDir, dir) };
  });

// every file that may use a package: all packages' code, apps, root scripts
const appFolders = existsSync(join(ROOT, 'apps'))
  ? readdirSync(join(ROOT, 'apps')).map((d) => join(ROOT, 'apps', d))
  : [];
const sources = [
  ...packages.flatMap((p) => codeFiles(p.folder).map((path) => ({ path, owner: p.name }))),
  ...appFolders.flatMap((f) => codeFiles(f).map((path) => ({ path, owner: null }))),
  ...walk(join(ROOT, 'scripts')).map((path) => ({ path, owner: null })),
].map((s) => ({ ...s, text: readFileSync(s.path, 'utf8') }));
// the examples of every README (a package's own README is added for it below)
for (const p of packages) {
  const readmes = [join(p.folder, 'README.md'), ...walkReadmes(join(p.folder, 'src'))];
  for (const path of readmes) sources.push({ path, owner: p.name, text: readmeCode(path) });
}
for (const path of [join(ROOT, 'README.md'), ...appFolders.map((f) => join(f, 'README.md'))]) {
  sources.push({ path, owner: null, text: readmeCode(path) });
}

const escapeDollar = (s) => s.replace(/[$]/g, '\\$');
const failures = [];
for (const pkg of packages) {
  if (SKIP.has(pkg.dir)) continue;
  const entry = join(pkg.folder, 'src', 'index.ts');
  if (!existsSync(entry)) {
    failures.push(`${pkg.name}: ${relative(ROOT, entry)} is missing.`);
    continue;
  }
  const names = Object.keys(await import(pathToFileURL(entry).href)).sort();
  const limit = LIMITS[pkg.dir] ?? DEFAULT_LIMIT;
  if (names.length > limit) {
    failures.push(
      `${pkg.name}: ${names.length} runtime exports, limit ${limit}; move internals to its "./internal" entry.`,
    );
  }
  // files outside the package that import its "." entry (not a subpath), plus its own README's examples
  const spec = new RegExp(`['"]${pkg.name.replace('/', '\\/')}['"]`);
  const users = sources.filter((s) => s.owner !== pkg.name && spec.test(s.text)).map((s) => s.text);
  users.push(readmeCode(join(pkg.folder, 'README.md')));
  const unused = names.filter((name) => {
    const word = new RegExp(`(?<![\\w$])${escapeDollar(name)}(?![\\w$])`);
    return !users.some((text) => word.test(text));
  });
  if (unused.length > 0) {
    failures.push(
      `${pkg.name}: exported but used by no other package, app, script or README example ` +
        `(move to "./internal" or unexport): ${unused.join(', ')}`,
    );
  }
  console.log(`${pkg.name}: ${names.length} runtime exports (limit ${limit})`);
}
if (failures.length > 0) {
  console.error(
    `\ncheck-exports: ${failures.length} problem(s):\n${failures.map((f) => `- ${f}`).join('\n')}`,
  );
  process.exit(1);
}
console.log('check-exports: ok');

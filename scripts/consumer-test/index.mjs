#!/usr/bin/env node
// The consumer test: builds and packs every library, installs the tarballs into a fresh
// TypeScript project outside the workspace (npm, as a user would), type-checks it with strict
// settings and runs the README examples of @mocap/layout, @mocap/solver and @mocap/anim-loop
// (the first ```ts block of each README) plus an import of every package.
// The tarballs install together: pack pins each @mocap sibling at its exact version, which npm
// takes from the tarballs given (pnpm would look them up in the registry unless
// pnpm.overrides points them at the tarballs).
// Usage: node scripts/consumer-test/index.mjs [--keep]   (--keep leaves the temp project)
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const here = import.meta.dirname;
const keep = process.argv.includes('--keep');
// The README examples run in this order: the solver's writes the motion.json the anim-loop's reads.
const EXAMPLES = ['layout', 'solver', 'anim-loop'];

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const log = (msg) => console.log(`[consumer-test ${elapsed()}] ${msg}`);

// npm must see neither pnpm's script environment nor the workspace's settings.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(npm|pnpm)_(config|package|lifecycle)_/i.test(k)),
);

function run(cmd, args, cwd) {
  try {
    return execFileSync(cmd, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const tail = `${err.stdout ?? ''}${err.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`consumer-test: \`${cmd} ${args.join(' ')}\` in ${cwd} exited ${err.status}:\n${tail}`, {
      cause: err,
    });
  }
}

/** The first ```ts block of a package README: the example the README promises will run. */
function readmeExample(pkg) {
  const file = path.join(root, 'packages', pkg, 'README.md');
  const match = /^```ts\n([\s\S]*?)^```$/m.exec(readFileSync(file, 'utf8'));
  if (!match) throw new Error(`consumer-test: ${file}: no \`\`\`ts example block.`);
  return match[1];
}

const libraries = readdirSync(path.join(root, 'packages'))
  .map((dir) => ({
    dir,
    pkg: JSON.parse(readFileSync(path.join(root, 'packages', dir, 'package.json'), 'utf8')),
  }))
  .filter(({ pkg }) => !pkg.private);

// What npm shows and checks for each published package.
for (const { dir, pkg } of libraries) {
  const problems = [
    ['engines.node', pkg.engines?.node],
    ['repository.url', pkg.repository?.url],
    ['keywords', pkg.keywords?.length],
    ['license', pkg.license],
    ['files', pkg.files?.length],
  ]
    .filter(([, v]) => !v)
    .map(([k]) => `no ${k}`);
  if (pkg.repository?.directory !== `packages/${dir}`) {
    problems.push(
      `repository.directory is ${JSON.stringify(pkg.repository?.directory)}, not "packages/${dir}"`,
    );
  }
  if (problems.length > 0) {
    throw new Error(`consumer-test: packages/${dir}/package.json: ${problems.join('; ')}.`);
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'mocap-consumer-'));
try {
  log(`building ${libraries.length} libraries`);
  run('pnpm', ['turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only'], root);

  const tarballs = path.join(work, 'tarballs');
  run('pnpm', ['-r', '--filter=./packages/*', 'pack', '--pack-destination', tarballs], root);
  const files = readdirSync(tarballs).filter((f) => f.endsWith('.tgz'));
  for (const { pkg } of libraries) {
    const tgz = `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`;
    if (!files.includes(tgz))
      throw new Error(`consumer-test: pnpm pack gave no ${tgz} (got ${files.join(', ')}).`);
    const listing = run('tar', ['-tzf', path.join(tarballs, tgz)], work).split('\n');
    for (const f of [pkg.main, pkg.types, 'README.md']) {
      if (!listing.includes(path.posix.join('package', f))) {
        throw new Error(
          `consumer-test: ${tgz} lacks ${f} (build ${pkg.name} first, and list it in "files").`,
        );
      }
    }
    const manifest = run('tar', ['-xzOf', path.join(tarballs, tgz), 'package/package.json'], work);
    if (manifest.includes('workspace:')) {
      throw new Error(`consumer-test: ${tgz}: package.json still has a workspace: range after pnpm pack.`);
    }
  }
  log(`packed ${files.length} tarballs`);

  const app = path.join(work, 'app');
  mkdirSync(path.join(app, 'src'), { recursive: true });
  mkdirSync(path.join(app, 'creatures/wolf'), { recursive: true });
  const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dependencies = Object.fromEntries(
    libraries.map(({ pkg }) => [
      pkg.name,
      `file:../tarballs/${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`,
    ]),
  );
  const devDependencies = {
    typescript: rootPkg.devDependencies.typescript,
    '@types/node': rootPkg.devDependencies['@types/node'],
  };
  writeFileSync(
    path.join(app, 'package.json'),
    `${JSON.stringify({ name: 'mocap-consumer', private: true, type: 'module', dependencies, devDependencies }, null, 2)}\n`,
  );
  copyFileSync(path.join(here, 'tsconfig.json'), path.join(app, 'tsconfig.json'));
  for (const f of ['make-det.ts', 'smoke.ts']) copyFileSync(path.join(here, f), path.join(app, 'src', f));
  for (const pkg of EXAMPLES) writeFileSync(path.join(app, 'src', `${pkg}-example.ts`), readmeExample(pkg));
  for (const f of ['rig.json', 'creature.json']) {
    copyFileSync(path.join(root, 'creatures/wolf', f), path.join(app, 'creatures/wolf', f));
  }

  log(`npm install in ${app}`);
  run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], app);
  const installed = JSON.parse(run('npm', ['ls', '--json', '--depth=0'], app));
  for (const { pkg } of libraries) {
    if (!installed.dependencies?.[pkg.name])
      throw new Error(`consumer-test: npm did not install ${pkg.name}.`);
  }

  log('tsc (strict, skipLibCheck off)');
  run(path.join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], app);

  for (const script of ['make-det', ...EXAMPLES.map((p) => `${p}-example`), 'smoke']) {
    const out = run('node', [path.join('build', `${script}.js`)], app).trim();
    log(`${script}: ok${out ? `\n  ${out.split('\n').join('\n  ')}` : ''}`);
  }
  log('passed');
} finally {
  if (keep) console.log(`consumer-test: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}

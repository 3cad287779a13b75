/**
 * The fit and the CLI's start-up as a user meets them: each figure from a fresh `node` process.
 * Writes the wolf's synthetic detections at T = 120 and T = 480 (motion and corruption seeded 1,
 * 2 px noise, 5% outliers: the solver's fit-time bench) to det.npz files, then, interleaved
 * round by round so that a shared machine's load falls on every variant alike:
 *
 * - start-up: the time from spawning `mocap --help` (and `mocap solve` without arguments, which
 *   loads the solve command and prints its usage) to its first output;
 * - the fit: `mocap solve --det det-T.npz --rig creatures/wolf/rig.json --creature creatures/wolf`,
 *   the `fit.seconds` it writes to motion.json (what it prints as `fit ... s`; JIT cold, as
 *   every user run is) and the process's wall time.
 *
 * Variants: `built` (node packages/cli/dist/bin.js of this checkout: run `pnpm build` first),
 * `scripts/mocap.mjs` (what the root `mocap` script runs: the built CLI when the build is fresh)
 * and `pnpm --silent mocap` (the same through pnpm, as a user types it); with `--before DIR`,
 * another checkout (e.g. a `git worktree` of an older commit, built) as `before built` and
 * `before tsx` (its sources through tsx, what its `pnpm mocap` ran). The fit is timed with the
 * two builds only (the others start the same fit). It prints the medians and the load average
 * before and after each round.
 *
 *   pnpm --filter @mocap/cli exec node --conditions=@mocap/source --import tsx bench/cold-fit.ts [--runs 5] [--before DIR]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CreatureJson, Layout, RigJson, readJsonFile, writeDetections } from '@mocap/layout';
import { creatureInfo, rigModelFromRigJson, syntheticDetections, syntheticMotion } from '@mocap/solver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, before: { type: 'string' } },
});
const runs = Number(values.runs);
if (!(Number.isInteger(runs) && runs >= 1))
  throw new TypeError(`cold-fit: --runs: expected an integer >= 1, got "${values.runs}".`);

/** One way of starting the CLI: the program (node unless given) and its arguments before mocap's own. */
interface Variant {
  label: string;
  program?: string;
  argv: string[];
  /** Whether the fit is timed with it (the two tsx-free builds are enough for the fit). */
  fit: boolean;
}

const builtBin = (dir: string) => path.join(dir, 'packages/cli/dist/bin.js');
const variants: Variant[] = [];
if (values.before) {
  const before = path.resolve(values.before);
  if (!existsSync(builtBin(before)))
    throw new Error(`cold-fit: --before: ${builtBin(before)} is missing; build that checkout first.`);
  variants.push({ label: 'before built', argv: [builtBin(before)], fit: true });
  variants.push({
    label: 'before tsx',
    argv: ['--conditions=@mocap/source', '--import', 'tsx', path.join(before, 'packages/cli/src/bin.ts')],
    fit: false,
  });
}
if (!existsSync(builtBin(root)))
  throw new Error(`cold-fit: ${builtBin(root)} is missing; run pnpm build first.`);
variants.push({ label: 'built', argv: [builtBin(root)], fit: true });
variants.push({ label: 'scripts/mocap.mjs', argv: [path.join(root, 'scripts/mocap.mjs')], fit: false });
variants.push({ label: 'pnpm --silent mocap', program: 'pnpm', argv: ['--silent', 'mocap'], fit: false });

/** What one spawned run gave: seconds to its first output, to its exit, its exit code and output. */
interface Spawned {
  first: number;
  total: number;
  code: number | null;
  out: string;
}

const SOURCES_NOTICE = /^mocap: [^\n]*running the sources through tsx[^\n]*\n/;

function run(argv: string[], cwd: string, program: string = process.execPath): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = Number.NaN;
    let out = '';
    const child = spawn(program, argv, { cwd, env: { ...process.env, INIT_CWD: cwd } });
    const seen = (chunk: Buffer) => {
      out += String(chunk);
      // scripts/mocap.mjs's notice that it runs the sources is not the command's output.
      if (Number.isNaN(first) && out.replace(SOURCES_NOTICE, '').length > 0)
        first = (performance.now() - t0) / 1000;
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('error', reject);
    child.on('close', (code) => resolve({ first, total: (performance.now() - t0) / 1000, code, out }));
  });
}

const median = (v: number[]): number => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const tmp = await mkdtemp(path.join(tmpdir(), 'mocap-cold-fit-'));
try {
  const wolf = path.join(root, 'creatures/wolf');
  const rigFile = path.join(wolf, 'rig.json');
  const model = rigModelFromRigJson(await readJsonFile('cold-fit', rigFile, RigJson));
  const creature = await readJsonFile('cold-fit', path.join(wolf, 'creature.json'), CreatureJson);
  const layout = Layout.parse(creature.layout);
  const info = creatureInfo(model, creature);
  const names = model.keypoints.map((k) => k.name);
  const clips = [120, 480];
  for (const frames of clips) {
    const truth = syntheticMotion(model, info, { frames, seed: 1 });
    const det = syntheticDetections(truth.joints, names, 30, layout, info, {
      noisePx: 2,
      outliers: 0.05,
      seed: 1,
    });
    await writeDetections(path.join(tmp, `det-${frames}.npz`), det);
  }

  const figures = new Map<string, number[]>();
  const notes = new Set<string>();
  const add = (key: string, x: number) => figures.set(key, [...(figures.get(key) ?? []), x]);
  console.log(
    `cold fit and start-up, ${runs} rounds, node ${process.version}; load average (1, 5, 15 min) per round:`,
  );
  for (let r = 0; r < runs; r++) {
    const before = load();
    for (const v of variants) {
      const help = await run([...v.argv, '--help'], root, v.program);
      if (help.code !== 0) throw new Error(`cold-fit: ${v.label} --help exited ${help.code}:\n${help.out}`);
      add(`${v.label}|help`, help.first);
      if (SOURCES_NOTICE.test(help.out))
        notes.add(`${v.label} ran the sources through tsx: ${help.out.split('\n')[0]}`);
      const usage = await run([...v.argv, 'solve'], root, v.program);
      if (usage.code !== 2)
        throw new Error(`cold-fit: ${v.label} solve (no arguments) exited ${usage.code}:\n${usage.out}`);
      add(`${v.label}|solve`, usage.first);
    }
    for (const frames of clips) {
      for (const v of variants.filter((x) => x.fit)) {
        const out = path.join(tmp, `motion-${frames}.json`);
        const argv = [...v.argv, 'solve', '--det', path.join(tmp, `det-${frames}.npz`), '--rig', rigFile];
        const s = await run([...argv, '--creature', wolf, '--out', out], root, v.program);
        if (s.code !== 0)
          throw new Error(`cold-fit: ${v.label} solve T = ${frames} exited ${s.code}:\n${s.out}`);
        const motion = JSON.parse(await readFile(out, 'utf8')) as { fit: { seconds: number } };
        add(`${v.label}|fit ${frames}`, motion.fit.seconds);
        add(`${v.label}|wall ${frames}`, s.total);
        await rm(out);
      }
    }
    console.log(`  round ${r + 1}: ${before} -> ${load()}`);
  }
  const cell = (key: string) => {
    const v = figures.get(key);
    return v ? `${median(v).toFixed(3)} (${v.map((x) => x.toFixed(2)).join(' ')})` : '-';
  };
  console.log(`\nmedians of ${runs}, seconds (each run's figure in brackets):`);
  console.log(
    '| variant | --help: first output | solve: first output | fit T = 120 | process T = 120 | fit T = 480 | process T = 480 |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const v of variants) {
    const keys = ['help', 'solve', 'fit 120', 'wall 120', 'fit 480', 'wall 480'];
    console.log(`| ${v.label} | ${keys.map((k) => cell(`${v.label}|${k}`)).join(' | ')} |`);
  }
  for (const n of notes) console.log(`note: ${n}`);
} finally {
  await rm(tmp, { recursive: true, force: true });
}

/**
 * `mocap capture` as a user runs it, stage by stage (issue 16): renders the wolf's 300-frame
 * rendered-exam clip of seed 5 once (`mocap exam --render --reuse-clip` caches clip.mp4 and
 * truth.json under creatures/wolf/runs/exam/render-seed5/), then captures it `--runs` times with
 * showcase and `--runs` times with `--no-renders`, interleaved, each in a fresh process
 * (`node scripts/mocap.mjs capture ... --json`: the built CLI when its build is fresh). Prints the
 * median of each stage's seconds, the end-to-end error of the applied animation (Blender's
 * joints.json against the clip's truth.json, cm) and the load average around each run.
 *
 *   pnpm bench:capture [--runs 3] [--frames 300] [--seed 5] [--creature creatures/wolf]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { JointsJson } from '@mocap/blender-bridge';
import { creaturePaths, MotionJson, readJsonFile, TruthJson } from '@mocap/layout';
import { scoreJoints } from '@mocap/solver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// `pnpm bench:capture -- --runs 3` passes its `--` on (through the root script's own, twice): drop them.
const argv = process.argv.slice(2);
while (argv[0] === '--') argv.shift();
const { values } = parseArgs({
  args: argv,
  options: {
    runs: { type: 'string', default: '3' },
    frames: { type: 'string', default: '300' },
    seed: { type: 'string', default: '5' },
    creature: { type: 'string', default: 'creatures/wolf' },
  },
});
const int = (name: string, v: string) => {
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= 1))
    throw new TypeError(`bench:capture: --${name}: expected an integer >= 1, got "${v}".`);
  return n;
};
const runs = int('runs', values.runs);
const frames = int('frames', values.frames);
const seed = int('seed', values.seed);
const creature = path.resolve(root, values.creature);
const mocap = path.join(root, 'scripts/mocap.mjs');

/** Runs the CLI; resolves with its stdout, rejects with its stderr's tail on failure. */
function run(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mocap, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(out);
      else reject(new Error(`bench:capture: mocap ${args.join(' ')} exited ${code}:\n${err.slice(-2000)}`));
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const examDir = path.join(creaturePaths(creature).exam, `render-seed${seed}`);
process.stderr.write(
  `bench:capture: the clip (${frames} frames, seed ${seed}; rendered once, then reused)\n`,
);
await run([
  'exam',
  '--render',
  '--creature',
  creature,
  '--frames',
  String(frames),
  '--seed',
  String(seed),
  '--reuse-clip',
  '--json',
]);
const clip = path.join(examDir, 'clip.mp4');
const truth = await readJsonFile('bench:capture', path.join(examDir, 'truth.json'), TruthJson);
// truth.json's joints are in the exam's motion.json `names` order.
const truthNames = (await readJsonFile('bench:capture', path.join(examDir, 'motion.json'), MotionJson)).names;
const truthIndex = new Map(truthNames.map((n, i) => [n, i]));

interface Row {
  seconds: Record<string, number>;
  mean: number;
  p95: number;
  load: [number, number];
}
const variants = { showcase: [] as string[], 'no-renders': ['--no-renders'] };
const rows: Record<string, Row[]> = { showcase: [], 'no-renders': [] };
const work = await mkdtemp(path.join(tmpdir(), 'bench-capture-'));
try {
  for (let r = 0; r < runs; r++) {
    for (const [label, extra] of Object.entries(variants)) {
      const out = path.join(work, `${label}-${r}`);
      const before = loadavg()[0] as number;
      const result = JSON.parse(
        await run(['capture', clip, '--creature', creature, '--out', out, '--json', ...extra]),
      ) as { seconds: Record<string, number>; joints: string };
      const j = await readJsonFile('bench:capture', result.joints, JointsJson);
      const index = new Map(j.names.map((n, i) => [n, i]));
      const shared = j.names.filter((n) => truthIndex.has(n));
      const fitted: number[] = [];
      const want: number[] = [];
      for (let t = 0; t < Math.min(j.joints.length, truth.joints.length); t++) {
        for (const n of shared) {
          fitted.push(...((j.joints[t] as number[][])[index.get(n) as number] as number[]));
          want.push(...((truth.joints[t] as number[][])[truthIndex.get(n) as number] as number[]));
        }
      }
      const score = scoreJoints(fitted, want, shared);
      rows[label]?.push({
        seconds: result.seconds,
        mean: score.error_cm.mean,
        p95: score.error_cm.p95,
        load: [before, loadavg()[0] as number],
      });
      process.stderr.write(
        `run ${r + 1}/${runs} ${label}: total ${result.seconds.total?.toFixed(1)} s, ${score.error_cm.mean.toFixed(3)} / ${score.error_cm.p95.toFixed(3)} cm, load ${before.toFixed(1)} -> ${loadavg()[0]?.toFixed(1)}\n`,
      );
      await rm(out, { recursive: true, force: true });
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}

for (const [label, rs] of Object.entries(rows)) {
  const stages = Object.keys(rs[0]?.seconds ?? {});
  const cells = stages.map((s) => `${s} ${median(rs.map((r) => r.seconds[s] as number)).toFixed(1)} s`);
  const load = rs.flatMap((r) => r.load);
  process.stdout.write(
    `${label} (median of ${rs.length}): ${cells.join(', ')}; ${median(rs.map((r) => r.mean)).toFixed(3)} / ${median(rs.map((r) => r.p95)).toFixed(3)} cm mean / p95; load ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}\n`,
  );
}

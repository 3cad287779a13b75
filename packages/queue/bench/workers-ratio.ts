/**
 * Two workers over one (issue 18): a `--count`-sample dataset of the creature rendered through the
 * queue as `--shards` shards, once with 1 worker and once with 2 (`mocap worker` processes on this
 * machine, started before the clock), `--runs` times each, interleaved, each run into a fresh
 * folder. A redis-server is started on 127.0.0.1 on a free port and stopped after. Prints each
 * run's wall time (enqueue to the last shard done), the medians and their ratio (1 worker / 2).
 *
 *   pnpm --filter @mocap/queue bench:workers [--count 200] [--runs 3] [--shards 2] [--creature creatures/wolf]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderDatasetOnQueue } from '@mocap/queue';
import { startRedis } from '@mocap/test-utils';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '200' },
    runs: { type: 'string', default: '3' },
    shards: { type: 'string', default: '2' },
    seed: { type: 'string', default: '1' },
    creature: { type: 'string', default: 'creatures/wolf' },
  },
});
const int = (name: string, v: string) => {
  const n = Number(v);
  if (!(Number.isInteger(n) && n >= 1))
    throw new TypeError(`bench:workers: --${name}: expected an integer >= 1, got "${v}".`);
  return n;
};
const count = int('count', values.count);
const runs = int('runs', values.runs);
const shards = int('shards', values.shards);
const seed = int('seed', values.seed);
const creature = path.resolve(root, values.creature);

/** A `mocap worker` from the sources (the same code version as this script's submitter). */
function worker(url: string): { child: ChildProcess; ready: Promise<void>; exited: Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      '--conditions=@mocap/source',
      '--import',
      'tsx',
      path.join(root, 'packages/cli/src/bin.ts'),
      'worker',
      '--queue',
      url,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (d) => {
      err += String(d);
      if (err.includes('waiting for jobs')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`mocap worker exited with ${code}:\n${err}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, ready, exited };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const redis = await startRedis();
const scratch = await mkdtemp(path.join(tmpdir(), 'bench-workers-'));
const times: Record<1 | 2, number[]> = { 1: [], 2: [] };
try {
  for (let r = 0; r < runs; r++) {
    for (const n of [1, 2] as const) {
      const ws = Array.from({ length: n }, () => worker(redis.url));
      await Promise.all(ws.map((w) => w.ready));
      const out = path.join(scratch, `run${r}-w${n}`);
      const load = loadavg()[0] as number;
      const t0 = performance.now();
      const res = await renderDatasetOnQueue({ url: redis.url, creature, count, seed, shards, out });
      const s = (performance.now() - t0) / 1000;
      times[n].push(s);
      const by = new Set(res.shards.map((x) => x.worker)).size;
      console.log(
        `run ${r + 1}/${runs}, ${n} worker(s): ${s.toFixed(1)} s for ${count} samples in ${shards} shards (shards ran on ${by} worker(s); load ${load.toFixed(1)} before)`,
      );
      for (const w of ws) w.child.kill('SIGTERM');
      await Promise.all(ws.map((w) => w.exited));
      await rm(out, { recursive: true, force: true });
    }
  }
  const [m1, m2] = [median(times[1]), median(times[2])];
  console.log(
    `median wall: 1 worker ${m1.toFixed(1)} s, 2 workers ${m2.toFixed(1)} s; ratio 1/2 = ${(m1 / m2).toFixed(2)} (${count} samples, ${shards} shards, ${runs} runs each)`,
  );
} finally {
  await redis.stop();
  await rm(scratch, { recursive: true, force: true });
}

import { type ChildProcess, spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRig, prepMesh, renderDataset } from '@mocap/blender-bridge';
import { captureClip, flatMotionJson, renderExam, renderMotionClip } from '@mocap/pipeline';
import { renderDatasetOnQueue } from '@mocap/queue';
import { jobStates, submitJobs } from '@mocap/queue/internal';
import { solveContext, syntheticMotion } from '@mocap/solver';
import { freePort, startRedis, type TestRedis } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyQuarterWolf, trainTinyReader } from '../helpers/quarter-wolf.js';
import { runCli } from '../helpers/run-cli.js';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const COUNT = 12;
const SEED = 5;

/** `mocap worker` as its own process group (a machine's worth: node and its Blender children). */
function spawnWorker(url: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--conditions=@mocap/source',
      '--import',
      'tsx',
      path.join(root, 'packages/cli/src/bin.ts'),
      'worker',
      '--queue',
      url,
      // A dead worker's job goes back to the queue after 4 s (30 s by default).
      '--lock-duration',
      '4',
    ],
    { cwd: root, env: process.env, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
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
  return { child, ready, exited, log: () => err, pid: child.pid as number };
}
type SpawnedWorker = ReturnType<typeof spawnWorker>;

async function metas(dir: string): Promise<string[]> {
  return Promise.all(
    Array.from({ length: COUNT }, (_, i) =>
      readFile(path.join(dir, `${String(i).padStart(5, '0')}_meta.json`), 'utf8'),
    ),
  );
}

describe('mocap worker with dataset/capture --queue (real redis-server, two worker processes, Blender)', () => {
  let redis: TestRedis;
  let dir = '';
  let workers: SpawnedWorker[] = [];
  let local: string[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    dir = await copyQuarterWolf('cli-queue-');
    await prepMesh({ creature: dir });
    await buildRig({ creature: dir });
    workers = [spawnWorker(redis.url), spawnWorker(redis.url)];
    const out = path.join(dir, 'runs', 'dataset-local');
    await renderDataset({ creature: dir, count: COUNT, seed: SEED, out });
    local = await metas(out);
    await Promise.all(workers.map((w) => w.ready));
  }, 600_000);
  afterAll(async () => {
    for (const w of workers) {
      try {
        process.kill(-w.pid, 'SIGTERM');
      } catch {}
    }
    await Promise.all(workers.map((w) => w.exited));
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('dataset --queue --shards 3 over two workers: the metas equal a local run byte for byte', async () => {
    const out = path.join(dir, 'runs', 'dataset-queued');
    const argv = ['dataset', '--creature', dir, '--count', `${COUNT}`, '--seed', `${SEED}`, '--out', out];
    const r = await runCli([...argv, '--queue', redis.url, '--shards', '3'], process.env);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${out}: ${COUNT} rendered, 0 already there, in 3 shards\n`);
    // Both workers took shards.
    for (const w of workers) expect(r.err).toContain(`on ${w.log().match(/worker (\S+) \(/)?.[1]}`);
    expect(r.err).toMatch(/dataset shard 3\/3 of .*: done on \S+ \(4 rendered, 0 already there\) \[3\/3\]/);
    expect(await metas(out)).toEqual(local);
    const left = (await readdir(path.dirname(out))).filter((f) => f.includes('.lock'));
    expect(left).toEqual([]);
  }, 300_000);

  it('a worker SIGKILLed mid-shard: the shard is retried on the other worker, resumes, and the metas equal a local run', async () => {
    const out = path.join(dir, 'runs', 'dataset-killed');
    let killed = '';
    const r = await renderDatasetOnQueue({
      url: redis.url,
      creature: dir,
      count: COUNT,
      seed: SEED,
      out,
      shards: 2,
      pollMs: 100,
      onEvent: (e) => {
        const p = e.kind === 'progress' ? e.progress : null;
        if (killed || !p || p.stage !== 'render' || p.done < 1 || p.done >= p.total) return;
        killed = p.worker;
        // The whole machine goes: the worker and its Blender.
        process.kill(-Number(p.worker.split(':').pop()), 'SIGKILL');
      },
    });
    expect(killed).not.toBe('');
    const byShard = r.shards.map((s) => s.worker);
    expect(byShard).not.toContain(killed);
    // The retried shard found the samples the killed run finished and rendered only the rest.
    const retried = r.shards.find((s) => s.skipped > 0);
    expect(retried, JSON.stringify(r.shards)).toBeDefined();
    expect(retried!.rendered + retried!.skipped).toBe(COUNT / 2);
    expect(await metas(out)).toEqual(local);
    const files = (await readdir(out)).concat(await readdir(path.dirname(out)));
    expect(files.filter((f) => f.includes('.tmp') || f.includes('.lock'))).toEqual([]);
    // Back to two workers for what follows.
    workers = workers.filter((w) => !killed.endsWith(`:${w.pid}`));
    const fresh = spawnWorker(redis.url);
    workers.push(fresh);
    await fresh.ready;
  }, 300_000);

  it("a shard delivered twice at once: the second run waits for the first run's lock, then finds every sample there", async () => {
    const out = path.join(dir, 'runs', 'dataset-twice');
    const job = {
      kind: 'dataset-shard',
      creature: dir,
      out,
      count: COUNT,
      seed: SEED,
      shard: { index: 1, of: 2 },
    } as const;
    const r = await submitJobs('dataset', [job, job], { url: redis.url, pollMs: 100 });
    expect(new Set(r.map((x) => x.worker)).size).toBe(2);
    expect(r.map((x) => [x.rendered, x.skipped]).sort()).toEqual([
      [0, COUNT / 2],
      [COUNT / 2, 0],
    ]);
    const odd = (xs: string[]) => xs.filter((_, i) => i % 2 === 1);
    const got = await Promise.all(
      odd(local).map((_, k) =>
        readFile(path.join(out, `${String(2 * k + 1).padStart(5, '0')}_meta.json`), 'utf8'),
      ),
    );
    expect(got).toEqual(odd(local));
    expect((await readdir(out)).filter((f) => f.includes('_meta.json'))).toHaveLength(COUNT / 2);
  }, 300_000);

  it('cancelled while shards run: the workers abort them (Blender killed), nothing half-written, the workers go on', async () => {
    const out = path.join(dir, 'runs', 'dataset-cancelled');
    // Five times the samples, so the abort lands long before both shards could finish them all.
    const many = COUNT * 5;
    const ac = new AbortController();
    const ids: string[] = [];
    const err = await renderDatasetOnQueue({
      url: redis.url,
      creature: dir,
      count: many,
      seed: SEED,
      out,
      shards: 2,
      pollMs: 100,
      signal: ac.signal,
      onEvent: (e) => {
        if (e.kind === 'queued') ids.push(e.id);
        if (e.kind === 'progress' && e.progress.stage === 'render' && e.progress.done >= 1) ac.abort();
      },
    }).catch((e: Error) => e);
    expect(String(err)).toMatch(
      /dataset: cancelled: 0 queued jobs removed, [12] running jobs told to stop\./,
    );
    let states = await jobStates(redis.url, ids);
    while (states.some((s) => s.state === 'active' || s.state === 'waiting')) {
      await new Promise((r) => setTimeout(r, 200));
      states = await jobStates(redis.url, ids);
    }
    const reasons = states.map((s) => s.failedReason ?? '');
    expect(
      reasons.some((r) => r.includes('render_dataset.py was cancelled')),
      reasons.join('\n'),
    ).toBe(true);
    expect((await readdir(out)).filter((f) => f.includes('.tmp'))).toEqual([]);
    const written = (await readdir(out)).filter((f) => f.endsWith('_meta.json')).sort();
    expect(written.length).toBeLessThan(many);
    // Sample i is drawn from (seed, i) alone: those the local run has must match it byte for byte.
    for (const f of written) {
      const i = Number(f.slice(0, 5));
      const meta = await readFile(path.join(out, f), 'utf8');
      if (i < COUNT) expect(meta).toBe(local[i]);
      else expect(JSON.parse(meta)).toMatchObject({ index: i, seed: SEED });
    }
    for (const w of workers) expect(() => process.kill(w.pid, 0)).not.toThrow();
  }, 300_000);

  it('capture of 3 clips --queue: each lands in runs/capture/<clip> as a local capture writes it', async () => {
    await trainTinyReader(dir);
    const ctx = await solveContext('test', dir);
    const truth = syntheticMotion(ctx.model, ctx.info, { frames: 8, seed: 3, fps: 12 });
    const clips = path.join(dir, 'clips');
    await mkdir(clips, { recursive: true });
    const first = path.join(clips, 'walk-a.mp4');
    await renderMotionClip({
      creature: dir,
      motion: flatMotionJson(ctx.model, truth),
      out: first,
      aa: 'OFF',
    });
    const all = [first, path.join(clips, 'walk-b.mp4'), path.join(clips, 'walk-c.mp4')];
    for (const c of all.slice(1)) await copyFile(first, c);
    const flags = ['--creature', dir, '--calib', 'identity', '--refine', 'off', '--no-renders', '--no-fbx'];
    const r = await runCli(['capture', ...all, ...flags, '--queue', redis.url], process.env);
    expect(r.code, r.err).toBe(0);
    const outs = ['walk-a', 'walk-b', 'walk-c'].map((n) => path.join(dir, 'runs', 'capture', n));
    expect(r.out.trim().split('\n').sort()).toEqual(outs);
    const solo = path.join(dir, 'runs', 'capture-local', 'walk-a');
    await captureClip({
      clip: first,
      creature: dir,
      out: solo,
      calib: 'identity',
      refine: 'off',
      renders: false,
      fbx: false,
    });
    // Identical to the local capture but for how long the solve took (motion.json's `seconds`).
    const untimed = async (o: string) =>
      JSON.parse(await readFile(path.join(o, 'motion.json'), 'utf8'), (k, v) =>
        k === 'seconds' ? undefined : v,
      );
    const want = await untimed(solo);
    const det = await readFile(path.join(solo, 'det.npz'));
    for (const o of outs) {
      expect((await readdir(o)).sort()).toEqual([
        'animation.bvh',
        'animation.glb',
        'det.npz',
        'joints.json',
        'motion.json',
      ]);
      expect(await untimed(o)).toEqual(want);
      expect((await readFile(path.join(o, 'det.npz'))).equals(det)).toBe(true);
    }
  }, 600_000);

  it('exam --render --queue --seeds 1,2: each seed in runs/exam/render-seed<seed>, report.json as a local exam writes it', async () => {
    const flags = ['--creature', dir, '--frames', '4', '--refine', 'off'];
    const r = await runCli(
      ['exam', '--render', ...flags, '--seeds', '1,2', '--queue', redis.url],
      process.env,
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/\(render\): 4 frames, seed 1,[\s\S]*\(render\): 4 frames, seed 2,/);
    expect(r.err).toMatch(/exam seed 2 of .*: done on \S+ \(mean error [\d.]+ cm\) \[\d\/2\]/);
    const solo = path.join(dir, 'runs', 'exam-local');
    await renderExam({ creature: dir, frames: 4, seed: 1, refine: 'off', out: solo });
    // Identical but for how long the fit took.
    const untimed = async (o: string) =>
      JSON.parse(await readFile(path.join(o, 'report.json'), 'utf8'), (k, v) =>
        k === 'fit_seconds' ? undefined : v,
      );
    expect(await untimed(path.join(dir, 'runs', 'exam', 'render-seed1'))).toEqual(await untimed(solo));
  }, 300_000);

  it("a failing job: capture --queue exits non-zero with the worker's error", async () => {
    const bad = path.join(dir, 'clips', 'not-a-video.mp4');
    await writeFile(bad, 'not a video');
    const r = await runCli(['capture', bad, '--creature', dir, '--queue', redis.url], process.env);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      new RegExp(`^mocap capture: capture: capture of ${bad} failed \\(job [\\w-]+\\): \\S`, 'm'),
    );
  }, 300_000);

  it('Redis down: dataset --queue exits at once naming the URL', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const r = await runCli(
      ['dataset', '--creature', dir, '--count', '2', '--queue', url, '--shards', '2'],
      process.env,
    );
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `mocap dataset: dataset: Redis at ${url} cannot be reached: is redis-server running there?`,
    );
  });
});

// Turbo's remote cache across machines: a self-hosted turborepo-remote-cache server on 127.0.0.1,
// `turbo run ref --filter @mocap-creature/fox` in clone A (prep, rig, ref run in Blender and are
// uploaded), then in a fresh clone B, which restores everything from the server and runs nothing.
// Building the workspace in a clone would cost minutes, so the builds this checkout's suite already
// cached (.turbo/cache, same hashes as a clone of HEAD on a clean tree) are uploaded first through
// the cache API, as a CI with remote caching on would have done; a build missing there runs in A.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const FOX = '@mocap-creature/fox';
const TEAM = 'mocap';
const TOKEN = randomBytes(16).toString('hex');

/** The env of a turbo run in a clone: the outer turbo's TURBO_* vars dropped, the cache server's set. */
function turboEnv(api: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('TURBO_')));
  return { ...env, TURBO_API: api, TURBO_TOKEN: TOKEN, TURBO_TEAM: TEAM, TURBO_TELEMETRY_DISABLED: '1' };
}

async function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return promisify(execFile)(cmd, args, { cwd, env, maxBuffer: 1 << 26, timeout: 600_000 });
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** A checkout of HEAD with its dependencies linked from the pnpm store (no network). */
async function cloneHead(dest: string): Promise<void> {
  await sh('git', ['clone', '--quiet', root, dest], tmpdir());
  await sh('pnpm', ['install', '--offline', '--frozen-lockfile'], dest);
}

interface TaskSummary {
  taskId: string;
  task: string;
  hash: string;
  command: string;
  cache: { status: 'HIT' | 'MISS'; source?: string };
}

/** `turbo run ref --filter fox --summarize` in `dir` with `cache` (turbo's --cache), its tasks and output. */
async function turboRef(
  dir: string,
  api: string,
  cache: string,
): Promise<{ tasks: TaskSummary[]; out: string }> {
  const { stdout, stderr } = await sh(
    'pnpm',
    ['exec', 'turbo', 'run', 'ref', '--filter', FOX, '--summarize', `--cache=${cache}`],
    dir,
    turboEnv(api),
  );
  const runs = path.join(dir, '.turbo', 'runs');
  const [summary] = (await readdir(runs)).filter((f) => f.endsWith('.json'));
  const json = JSON.parse(await readFile(path.join(runs, summary as string), 'utf8')) as {
    tasks: TaskSummary[];
  };
  return { tasks: json.tasks.filter((t) => t.command !== '<NONEXISTENT>'), out: stdout + stderr };
}

describe('Turbo remote cache (turborepo-remote-cache on 127.0.0.1): creature stages restore on another clone', () => {
  let work = '';
  let api = '';
  let server: ChildProcess | undefined;
  let serverLog = '';
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'mocap-remote-cache-'));
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [path.join(root, 'node_modules/turborepo-remote-cache/dist/cli.js')], {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        TURBO_TOKEN: TOKEN,
        STORAGE_PROVIDER: 'local',
        STORAGE_PATH: path.join(work, 'storage'),
        STORAGE_PATH_USE_TMP_FOLDER: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (d) => {
      serverLog += String(d);
    });
    server.stderr?.on('data', (d) => {
      serverLog += String(d);
    });
    for (let i = 0; ; i++) {
      const up = await fetch(`${api}/v8/artifacts/status`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      }).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 300 || server.exitCode !== null)
        throw new Error(`turborepo-remote-cache did not start: ${serverLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 120_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('clone A runs prep, rig and ref and uploads them; clone B restores every task and runs none', async () => {
    const a = path.join(work, 'a');
    await cloneHead(a);
    // The builds this checkout already cached go to the server (the cache API's PUT /v8/artifacts/:hash).
    const { stdout } = await sh(
      'pnpm',
      ['exec', 'turbo', 'run', 'ref', '--filter', FOX, '--dry=json'],
      a,
      turboEnv(api),
    );
    const planned = (JSON.parse(stdout) as { tasks: TaskSummary[] }).tasks;
    const builds = planned.filter((t) => t.task === 'build' && t.command !== '<NONEXISTENT>');
    const missing: string[] = [];
    for (const t of builds) {
      const file = path.join(root, '.turbo', 'cache', `${t.hash}.tar.zst`);
      if (!existsSync(file)) {
        missing.push(t.taskId);
        continue;
      }
      const meta = JSON.parse(
        await readFile(file.replace('.tar.zst', '-meta.json'), 'utf8').catch(() => '{}'),
      );
      const put = await fetch(`${api}/v8/artifacts/${t.hash}?slug=${TEAM}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/octet-stream',
          'x-artifact-duration': String(meta.duration ?? 0),
        },
        body: await readFile(file),
      });
      expect(put.status, `${t.taskId}: ${await put.text()}`).toBeLessThan(300);
    }
    if (missing.length)
      console.warn(
        `remote cache test: not built in this checkout, so built in clone A: ${missing.join(', ')}`,
      );

    // Clone A: no local cache, the server's read and written.
    const first = await turboRef(a, api, 'remote:rw');
    const stages = ['prep', 'rig', 'ref'].map((s) => `${FOX}#${s}`);
    for (const id of stages) expect(first.tasks.find((t) => t.taskId === id)?.cache.status, id).toBe('MISS');
    const refPng = path.join(a, 'creatures/fox/runs/ref/ref.png');
    expect(existsSync(refPng)).toBe(true);

    // Clone B, fresh: the server only, read-only. Everything restores, nothing runs.
    const b = path.join(work, 'b');
    await cloneHead(b);
    const second = await turboRef(b, api, 'remote:r');
    expect(second.tasks.map((t) => t.taskId)).toEqual(
      expect.arrayContaining([...stages, '@mocap/cli#build']),
    );
    for (const t of second.tasks)
      expect([t.taskId, t.cache.status, t.cache.source]).toEqual([t.taskId, 'HIT', 'REMOTE']);
    expect(second.out).toContain('FULL TURBO');
    for (const s of ['prep', 'rig', 'ref'])
      expect(second.out).toContain(`${FOX}:${s}: cache hit, replaying logs`);
    // The stages' outputs on B are A's, byte for byte.
    for (const f of [
      'runs/prep/static.blend',
      'runs/rigged/rigged.blend',
      'runs/rigged/rig_info.json',
      'runs/ref/ref.png',
    ]) {
      const [x, y] = await Promise.all([
        readFile(path.join(a, 'creatures/fox', f)),
        readFile(path.join(b, 'creatures/fox', f)),
      ]);
      expect(y.equals(x), f).toBe(true);
    }
  }, 900_000);
});

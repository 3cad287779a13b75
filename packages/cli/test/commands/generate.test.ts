import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FalServer, makeCreature, removeCreatures, startFalServer, tinyMp4 } from '@mocap/test-utils';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/run-cli.js';

afterAll(removeCreatures);

const KEY = 'cli-test-key-7d1e:abcdef0123456789';
let server: FalServer;
let dir: string;

beforeEach(async () => {
  server = await startFalServer({ key: KEY, pollsToComplete: 3 });
  dir = await makeCreature();
});
afterEach(async () => {
  await server.close();
});

describe('mocap generate', () => {
  const env = () => ({ FAL_KEY: KEY, MOCAP_FAL_BASE_URL: server.url });
  const args = ['generate', '--creature', '', '--move', 'trot', '--seed', '2', '--poll', '0.005'];
  const argv = () => args.map((a) => a || dir);

  it('generates the clip, printing its path, with progress on stderr and no key anywhere', async () => {
    const r = await run(argv(), env());
    expect(r.code).toBe(0);
    const video = r.out.trim();
    expect(video).toMatch(/runs\/videos\/trot\/s2\/fal-ai_wan_v2\.2-a14b_image-to-video\.mp4$/);
    expect(new Uint8Array(await readFile(video))).toEqual(tinyMp4());
    expect(r.err).toMatch(/submitted: request \S+ \(recorded in .*\.job\.json\)/);
    expect(r.err).toContain('queued, position 1');
    expect(r.err).toContain('step 1');
    expect(r.out + r.err).not.toContain(KEY);
  });

  it('--dry-run prints the exact request without FAL_KEY and without calling fal', async () => {
    const r = await run([...argv(), '--dry-run', '--input', 'num_frames=81'], {});
    expect(r.code).toBe(0);
    const req = JSON.parse(r.out) as { url: string; input: Record<string, unknown> };
    expect(req.url).toBe('https://queue.fal.run/fal-ai/wan/v2.2-a14b/image-to-video');
    expect(req.input).toMatchObject({ seed: 2, num_frames: 81, prompt: 'One timber wolf trots forward.' });
    expect(server.log).toEqual([]);
  });

  it('without FAL_KEY says what to set', async () => {
    const r = await run(argv(), { MOCAP_FAL_BASE_URL: server.url });
    expect(r.code).toBe(1);
    expect(r.err).toContain('FAL_KEY is not set');
  });

  it('a 422 shows fal detail and exits 1; a retried 429 is reported', async () => {
    server.faults.push(
      { op: 'submit', status: 429, headers: { 'retry-after': '0' } },
      {
        op: 'submit',
        status: 422,
        body: { detail: [{ loc: ['body', 'prompt'], msg: 'too long', type: 'x' }] },
      },
    );
    const r = await run(argv(), env());
    expect(r.code).toBe(1);
    expect(r.err).toContain('fal submit: HTTP 429; retry 1 in 0.0 s');
    expect(r.err).toContain('body.prompt: too long');
    expect(existsSync(`${dir}/runs/videos/trot/s2/fal-ai_wan_v2.2-a14b_image-to-video.mp4`)).toBe(false);
  });

  it('Ctrl-C while polling cancels the job on fal', async () => {
    server.options.pollsToComplete = Number.POSITIVE_INFINITY;
    const ac = new AbortController();
    server.options.onPoll = (job) => {
      if (job.polls === 2) ac.abort(new Error('interrupted (Ctrl-C)'));
    };
    const r = await run(argv(), env(), ac.signal);
    expect(r.code).toBe(1);
    expect(r.err).toContain('asking fal to cancel request');
    expect(r.err).toContain('fal was asked to cancel it');
    expect(server.count('cancel')).toBe(1);
  });

  it('a real Ctrl-C (SIGINT to the mocap process) cancels the job on fal and exits 1', async () => {
    server.options.pollsToComplete = Number.POSITIVE_INFINITY;
    const root = fileURLToPath(new URL('../../../..', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--conditions=@mocap/source',
        '--import',
        'tsx',
        path.join(root, 'packages/cli/src/bin.ts'),
        ...argv(),
      ],
      { cwd: root, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    server.options.onPoll = (job) => {
      if (job.polls === 2) child.kill('SIGINT');
    };
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(err).toContain('interrupted, stopping');
    expect(err).toContain('fal was asked to cancel it');
    expect(server.count('cancel')).toBe(1);
    expect([...server.jobs.values()][0]!.cancelled).toBe(true);
    expect(err).not.toContain(KEY);
  });
});

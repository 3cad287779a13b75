import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FalRetryInfo, generateVideo, type JobUpdate } from '@mocap/fal';
import { DEFAULT_VIDEO_MODEL, FalError, readJobState, videoPath } from '@mocap/fal/internal';
import {
  type FalServer,
  makeCreature,
  REF_PNG,
  removeCreatures,
  startFalServer,
  tinyMp4,
} from '@mocap/test-utils';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

afterAll(removeCreatures);

const KEY = 'test-key-5b2f9c0e:1234567890abcdef';
const FAST = { baseDelayMs: 5, maxDelayMs: 20 };
let server: FalServer;
let dir: string;

beforeEach(async () => {
  server = await startFalServer({ key: KEY, pollsToComplete: 3 });
  dir = await makeCreature();
});
afterEach(async () => {
  await server.close();
});

function run(extra: Partial<Parameters<typeof generateVideo>[1]> = {}, opts: Record<string, unknown> = {}) {
  const retries: FalRetryInfo[] = [];
  const updates: JobUpdate[] = [];
  const p = generateVideo(
    { creatureDir: dir, move: 'trot', seed: 7, pollIntervalMs: 5, ...opts },
    {
      key: KEY,
      transport: { baseUrl: server.url, retry: FAST, onRetry: (r) => retries.push(r) },
      onUpdate: (u) => updates.push(u),
      ...extra,
    },
  );
  return { p, retries, updates };
}

async function allText(root: string): Promise<string> {
  let out = '';
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out += await readFile(path.join(e.parentPath, e.name), 'latin1');
  }
  return out;
}

describe('generateVideo against a local fal queue', () => {
  it('uploads ref.png, submits once, reports progress and downloads the clip atomically', async () => {
    const { p, updates } = run();
    const r = await p;
    expect(r.outcome).toBe('submitted');
    expect(r.video).toBe(videoPath(dir, 'trot', 7, DEFAULT_VIDEO_MODEL));
    expect(r.video).toContain(
      path.join('runs', 'videos', 'trot', 's7', 'fal-ai_wan_v2.2-a14b_image-to-video.mp4'),
    );
    expect(new Uint8Array(await readFile(r.video))).toEqual(tinyMp4());
    expect(server.submissions()).toBe(1);
    const job = [...server.jobs.values()][0]!;
    expect(job.endpoint).toBe(DEFAULT_VIDEO_MODEL);
    expect(job.input.prompt).toBe('One timber wolf trots forward.');
    expect(job.input.seed).toBe(7);
    // the image_url the job got is the file the PUT stored, byte for byte
    const stored = server.files.get(String(job.input.image_url).replace('https://v3.fal.media/files/', ''));
    expect(stored?.bytes).toEqual(REF_PNG);
    expect(stored?.type).toBe('image/png');
    expect(updates.map((u) => u.status ?? u.kind)).toEqual([
      'submitted',
      'IN_QUEUE',
      'IN_PROGRESS',
      'COMPLETED',
    ]);
    expect(updates.flatMap((u) => u.logs ?? [])).toEqual(['step 1', 'done']);
    const state = await readJobState('test', r.stateFile);
    expect(state?.request_id).toBe(job.id);
    expect(state?.phase).toBe('completed');
    // every call that needs the key carried it; nothing on disk holds it
    for (const l of server.log.filter((x) => x.op !== 'upload' && x.op !== 'file'))
      expect(l.auth).toBe(`Key ${KEY}`);
    expect(await allText(dir)).not.toContain(KEY);
    expect((await readdir(path.dirname(r.video))).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('a second run finds the clip and calls nothing', async () => {
    await run().p;
    const before = server.log.length;
    const r = await run().p;
    expect(r.outcome).toBe('exists');
    expect(server.log.length).toBe(before);
  });

  it('retries a 429 on submit, then succeeds with one submission', async () => {
    server.faults.push({
      op: 'submit',
      status: 429,
      body: { detail: 'Rate limited' },
      headers: { 'retry-after': '0' },
    });
    const { p, retries } = run();
    await p;
    expect(server.count('submit')).toBe(2);
    expect(server.submissions()).toBe(1);
    expect(retries).toEqual([{ op: 'submit', attempt: 1, status: 429, delayMs: 0 }]);
  });

  it('retries 500s on status and 503 on the upload with growing backoff', async () => {
    server.faults.push({ op: 'status', status: 500, times: 2 }, { op: 'initiate', status: 503 });
    const { p, retries } = run();
    const r = await p;
    expect(r.bytes).toBe(tinyMp4().length);
    expect(server.submissions()).toBe(1);
    expect(retries.map((x) => [x.op, x.status, x.delayMs])).toEqual([
      ['upload (initiate)', 503, 5],
      ['status', 500, 5],
      ['status', 500, 10],
    ]);
  });

  it('gives up after maxRetries with the status and detail', async () => {
    server.faults.push({ op: 'submit', status: 502, times: 99, body: { detail: 'bad gateway' } });
    const err = await run({}, {}).p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FalError);
    expect((err as FalError).status).toBe(502);
    expect((err as Error).message).toMatch(/submit .*HTTP 502 after 6 attempts.*bad gateway/s);
    expect(server.submissions()).toBe(0);
  });

  it('shows the validation detail of a 422 and does not retry it', async () => {
    server.faults.push({
      op: 'submit',
      status: 422,
      body: {
        detail: [
          { loc: ['body', 'image_url'], msg: 'Image size must be at most 3840x3840', type: 'value_error' },
          {
            loc: ['body', 'num_frames'],
            msg: 'ensure this value is less than or equal to 121',
            type: 'value_error',
          },
        ],
      },
    });
    const err = (await run().p.catch((e: unknown) => e)) as FalError;
    expect(err).toBeInstanceOf(FalError);
    expect(err.status).toBe(422);
    expect(err.message).toContain('fal rejected the request as invalid');
    expect(err.message).toContain('body.image_url: Image size must be at most 3840x3840');
    expect(err.message).toContain('body.num_frames: ensure this value is less than or equal to 121');
    expect(server.count('submit')).toBe(1);
    expect(server.submissions()).toBe(0);
  });

  it('explains a 401 without retrying and without showing the key', async () => {
    const err = (await run({ key: 'wrong-key-0000' }).p.catch((e: unknown) => e)) as FalError;
    expect(err.status).toBe(401);
    expect(err.message).toContain('FAL_KEY');
    expect(err.message).toContain('Authentication is required');
    expect(err.message).not.toContain('wrong-key-0000');
    expect(server.count('initiate')).toBe(1);
    expect(server.submissions()).toBe(0);
  });

  it('times out a job that never completes, asks fal to cancel, and the next run resubmits', async () => {
    server.options.pollsToComplete = Number.POSITIVE_INFINITY;
    const err = (await run({}, { timeoutMs: 150 }).p.catch((e: unknown) => e)) as FalError;
    expect(err.message).toMatch(/timed out after 0\.1 s waiting for request .*fal was asked to cancel it/);
    expect(server.count('cancel')).toBe(1);
    const first = [...server.jobs.values()][0]!;
    expect(first.cancelled).toBe(true);
    const state = await readJobState(
      'test',
      videoPath(dir, 'trot', 7, DEFAULT_VIDEO_MODEL).replace('.mp4', '.job.json'),
    );
    expect(state?.phase).toBe('cancel_requested');
    expect(state?.request_id).toBe(first.id);
    server.options.pollsToComplete = 2;
    const r = await run().p;
    expect(r.outcome).toBe('submitted');
    expect(server.submissions()).toBe(2);
    expect(server.count('initiate')).toBe(1); // the upload was remembered
    expect(existsSync(r.video)).toBe(true);
  });

  it('Ctrl-C (abort) while polling asks fal to cancel the job', async () => {
    server.options.pollsToComplete = Number.POSITIVE_INFINITY;
    const ac = new AbortController();
    server.options.onPoll = (job) => {
      if (job.polls === 2) ac.abort(new Error('interrupted (Ctrl-C)'));
    };
    const err = (await run({ signal: ac.signal }).p.catch((e: unknown) => e)) as FalError;
    expect(err.message).toMatch(/interrupted while waiting for request .*fal was asked to cancel it/);
    expect(server.count('cancel')).toBe(1);
    expect([...server.jobs.values()][0]!.cancelled).toBe(true);
  });

  it('a process killed mid-poll is resumed on the same request, with no second submission', async () => {
    server.options.pollsToComplete = 6;
    const child = spawn(
      process.execPath,
      [
        '--conditions=@mocap/source',
        '--import',
        'tsx',
        fileURLToPath(new URL('./fixtures/generate-child.ts', import.meta.url)),
      ],
      {
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
        env: {
          ...process.env,
          FAL_KEY: KEY,
          CHILD_ARGS: JSON.stringify({
            options: { creatureDir: dir, move: 'trot', seed: 7, pollIntervalMs: 5 },
            baseUrl: server.url,
          }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const killed = new Promise<void>((resolve) => {
      server.options.onPoll = (job) => {
        if (job.polls === 3) {
          child.kill('SIGKILL');
          resolve();
        }
      };
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await Promise.race([
      killed,
      exited.then(() => Promise.reject(new Error(`child exited early: ${stderr}`))),
    ]);
    await exited;
    server.options.onPoll = undefined;
    expect(server.submissions()).toBe(1);
    const id = [...server.jobs.keys()][0]!;
    const stateFile = videoPath(dir, 'trot', 7, DEFAULT_VIDEO_MODEL).replace('.mp4', '.job.json');
    expect((await readJobState('test', stateFile))?.request_id).toBe(id);
    expect(existsSync(videoPath(dir, 'trot', 7, DEFAULT_VIDEO_MODEL))).toBe(false);

    const { p, updates } = run();
    const r = await p;
    expect(r.outcome).toBe('resumed');
    expect(r.requestId).toBe(id);
    expect(updates[0]).toMatchObject({ kind: 'resumed', requestId: id });
    expect(server.submissions()).toBe(1);
    expect(server.count('submit')).toBe(1);
    expect(server.count('initiate')).toBe(1);
    expect(new Uint8Array(await readFile(r.video))).toEqual(tinyMp4());
  });

  it('--dry-run builds the exact request and calls nothing, needing no key', async () => {
    const r = await generateVideo({ creatureDir: dir, move: 'trot', seed: 3 }, { dryRun: true });
    expect(r.outcome).toBe('dry-run');
    expect(r.request).toMatchObject({
      endpoint: DEFAULT_VIDEO_MODEL,
      method: 'POST',
      url: `https://queue.fal.run/${DEFAULT_VIDEO_MODEL}`,
      input: { prompt: 'One timber wolf trots forward.', seed: 3, resolution: '720p', aspect_ratio: '16:9' },
      upload: { bytes: REF_PNG.length },
    });
    expect(server.log).toEqual([]);
    expect(existsSync(r.stateFile)).toBe(false);
  });

  it('refuses to resume a recorded job whose request differs, naming the file', async () => {
    server.options.pollsToComplete = Number.POSITIVE_INFINITY;
    await run({}, { timeoutMs: 50 }).p.catch(() => {});
    const err = (await run({}, { extraInput: { num_frames: 81 } }).p.catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/\.job\.json: holds request .* for a different request/);
    expect(server.submissions()).toBe(1);
  });

  it('--lora uses the LoRA: its inference model, trigger phrase and weights', async () => {
    const loraFile = path.join(dir, 'lora.json');
    await writeFile(
      loraFile,
      JSON.stringify({
        lora_url: 'https://v3.fal.media/files/x/lora.safetensors',
        trigger_phrase: 'wolf_moves',
        trainer: 'fal-ai/wan-trainer',
        inference_model: 'fal-ai/wan-i2v-lora',
        scale: 0.8,
        request_id: 'r1',
        config: {},
        training_set: { clips: 4, mirrored: 2, zip_sha256: 'ab' },
        created_at: '2026-01-01T00:00:00Z',
      }),
    );
    const r = await run({}, { lora: loraFile }).p;
    expect(r.video).toBe(videoPath(dir, 'trot', 7, 'fal-ai/wan-i2v-lora'));
    const job = [...server.jobs.values()][0]!;
    expect(job.endpoint).toBe('fal-ai/wan-i2v-lora');
    expect(job.input.prompt).toBe('wolf_moves One timber wolf trots forward.');
    expect(job.input.loras).toEqual([{ path: 'https://v3.fal.media/files/x/lora.safetensors', scale: 0.8 }]);
  });

  it('names the field of a bad lora.json', async () => {
    const loraFile = path.join(dir, 'lora.json');
    await writeFile(loraFile, JSON.stringify({ lora_url: 'not a url' }));
    await expect(run({}, { lora: loraFile }).p).rejects.toThrow(
      /generate: .*lora\.json: lora_url: .*\(got "not a url"\)/,
    );
    expect(server.log).toEqual([]);
  });

  it('a job that failed on fal shows its detail, and the next run submits a new job', async () => {
    server.options.resultError = {
      status: 422,
      body: { detail: [{ loc: ['body', 'image_url'], msg: 'could not decode the image', type: 'x' }] },
    };
    const err = (await run().p.catch((e: unknown) => e)) as FalError;
    expect(err.status).toBe(422);
    expect(err.message).toContain('body.image_url: could not decode the image');
    expect(err.message).toMatch(
      /failed on fal; its state moved to .*\.failed-.*\.json, so the next run submits a new job/,
    );
    delete server.options.resultError;
    const r = await run().p;
    expect(r.outcome).toBe('submitted');
    expect(server.submissions()).toBe(2);
    expect(server.count('initiate')).toBe(2);
  });
});

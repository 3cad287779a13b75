import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LoraJson, type MotionMirror, trainLora } from '@mocap/fal';
import { FalError } from '@mocap/fal/internal';
import { readZip } from '@mocap/layout';
import { type FalServer, makeCreature, removeCreatures, startFalServer } from '@mocap/test-utils';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testRenderer } from './helpers/test-renderer.js';
import { wolfMotion } from './helpers/wolf-motion.js';

afterAll(removeCreatures);

const KEY = 'lora-test-key-91ab:fedcba9876543210';
const FAST = { baseDelayMs: 5, maxDelayMs: 20 };
// The flow under test (render, caption, zip, upload, train, lora.json, resume) does not depend on
// what the mirror computes, so these tests pass a copy; lora-set.test.ts checks the real mirror.
const copyMirror: MotionMirror = (m) => structuredClone(m);
let server: FalServer;
let dir: string;

beforeEach(async () => {
  server = await startFalServer({
    key: KEY,
    pollsToComplete: 2,
    result: (_job, s) => ({
      lora_file: {
        url: s.addFile('lora.safetensors', new Uint8Array([1, 2, 3]), 'application/octet-stream'),
      },
      config_file: { url: 'https://v3.fal.media/files/c/config.json' },
    }),
  });
  dir = await makeCreature('trot', 'One timber wolf trots forward and lifts its left forepaw.');
  for (const [move, seed] of [
    ['trot', 1],
    ['sit', 2],
  ] as const) {
    await mkdir(path.join(dir, 'runs', 'capture', move), { recursive: true });
    await writeFile(path.join(dir, 'runs', 'capture', move, 'motion.json'), JSON.stringify(wolfMotion(seed)));
  }
});
afterEach(async () => {
  await server.close();
});

function train(renderer = testRenderer(), extra: Record<string, unknown> = {}) {
  return trainLora(
    { creatureDir: dir, trigger: 'wolf_moves', steps: 500, pollIntervalMs: 5, ...extra },
    { key: KEY, renderer, mirror: copyMirror, transport: { baseUrl: server.url, retry: FAST } },
  );
}

describe('trainLora against a local fal queue', () => {
  it('renders each motion and its mirror, captions, zips, uploads, trains and writes lora.json', async () => {
    const renderer = testRenderer();
    const r = await train(renderer);
    expect(r.set.clips.map((c) => c.name)).toEqual(['sit', 'sit_mirrored', 'trot', 'trot_mirrored']);
    expect(renderer.calls).toHaveLength(4);
    const entries = readZip(new Uint8Array(await readFile(r.set.zip)));
    expect(entries.map((e) => e.name)).toEqual([
      'sit.mp4',
      'sit.txt',
      'sit_mirrored.mp4',
      'sit_mirrored.txt',
      'trot.mp4',
      'trot.txt',
      'trot_mirrored.mp4',
      'trot_mirrored.txt',
    ]);
    const text = (n: string) => new TextDecoder().decode(entries.find((e) => e.name === n)?.data);
    expect(text('trot.txt')).toBe('wolf_moves, One timber wolf trots forward and lifts its left forepaw.\n');
    expect(text('trot_mirrored.txt')).toBe(
      'wolf_moves, One timber wolf trots forward and lifts its right forepaw.\n',
    );
    expect(text('sit.txt')).toBe('wolf_moves, sit\n');
    // the zip fal got is the zip on disk, byte for byte
    expect(server.submissions()).toBe(1);
    const job = [...server.jobs.values()][0]!;
    expect(job.endpoint).toBe('fal-ai/wan-trainer');
    const stored = server.files.get(
      String(job.input.training_data_url).replace('https://v3.fal.media/files/', ''),
    );
    expect(stored?.bytes).toEqual(new Uint8Array(await readFile(r.set.zip)));
    expect(stored?.type).toBe('application/zip');
    expect(job.input).toMatchObject({
      number_of_steps: 500,
      trigger_phrase: 'wolf_moves',
      learning_rate: 0.0002,
    });
    const lora = LoraJson.parse(JSON.parse(await readFile(r.loraFile, 'utf8')));
    expect(r.loraFile).toBe(path.join(dir, 'runs', 'lora', 'lora.json'));
    expect(lora.lora_url).toMatch(/^https:\/\/v3\.fal\.media\/files\/.*\/lora\.safetensors$/);
    expect(lora).toMatchObject({
      trigger_phrase: 'wolf_moves',
      trainer: 'fal-ai/wan-trainer',
      inference_model: 'fal-ai/wan-i2v-lora',
      request_id: job.id,
      extra: { config_file: 'https://v3.fal.media/files/c/config.json' },
      training_set: {
        clips: 4,
        mirrored: 2,
        zip_sha256: createHash('sha256').update(stored!.bytes).digest('hex'),
      },
    });
    expect(await readFile(r.loraFile, 'utf8')).not.toContain(KEY);
  });

  it('a second run renders, uploads and submits nothing again', async () => {
    await train();
    const renderer = testRenderer();
    const before = { log: server.log.length };
    const r = await train(renderer);
    expect(renderer.calls).toEqual([]);
    expect(r.resumed).toBe(true);
    expect(server.log.length).toBe(before.log);
    expect(server.submissions()).toBe(1);
  });

  it('a 422 from the trainer shows the detail; the rendered set is kept for the next run', async () => {
    server.faults.push({
      op: 'submit',
      status: 422,
      body: { detail: [{ loc: ['body', 'number_of_steps'], msg: 'must be at most 20000', type: 'x' }] },
    });
    const err = (await train().catch((e: unknown) => e)) as FalError;
    expect(err).toBeInstanceOf(FalError);
    expect(err.message).toContain('body.number_of_steps: must be at most 20000');
    const renderer = testRenderer();
    await train(renderer);
    expect(renderer.calls).toEqual([]);
    expect(server.count('initiate')).toBe(1);
    expect(server.submissions()).toBe(1);
  });

  it('re-renders a clip whose motion changed', async () => {
    await train();
    await writeFile(
      path.join(dir, 'runs', 'capture', 'sit', 'motion.json'),
      JSON.stringify(wolfMotion(9, 6)),
    );
    const renderer = testRenderer();
    await expect(train(renderer)).rejects.toThrow(
      /train\.job\.json: holds request .* for a different request/,
    );
    expect(renderer.calls.map((c) => path.basename(c).split('.')[0])).toEqual(['sit', 'sit_mirrored']);
  });

  it('without captured motions says so, before asking fal anything', async () => {
    const empty = await makeCreature();
    await expect(
      trainLora({ creatureDir: empty }, { key: KEY, renderer: testRenderer(), mirror: copyMirror }),
    ).rejects.toThrow(/lora: no captured motions for .*capture some clips first/);
  });
});

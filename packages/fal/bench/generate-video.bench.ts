// Overhead of one whole generate job (upload, submit, 3 polls, result, download) against the
// local fal server on 127.0.0.1: what the client side costs, fal's own time excluded.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { generateVideo } from '@mocap/fal';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { makeCreature } from '../test/helpers/creature.js';
import { type FalServer, startFalServer, tinyMp4 } from '../test/helpers/fal-server.js';

const KEY = 'bench-key-0000';
let server: FalServer;
let dir: string;
let seed = 0;

beforeAll(async () => {
  server = await startFalServer({ key: KEY, pollsToComplete: 3 });
  dir = await makeCreature();
  tinyMp4();
});
afterAll(async () => {
  await server.close();
  await rm(path.join(dir, 'runs', 'videos'), { recursive: true, force: true });
});

describe('generateVideo', () => {
  bench(
    'one job end to end (local server, poll 1 ms)',
    async () => {
      await generateVideo(
        { creatureDir: dir, move: 'trot', seed: seed++, pollIntervalMs: 1 },
        { key: KEY, transport: { baseUrl: server.url } },
      );
    },
    { iterations: 50, warmupIterations: 5 },
  );
});

// Overhead of one whole generate job (upload, submit, 3 polls, result, download) against the
// local fal server on 127.0.0.1: what the client side costs, fal's own time excluded.
import { generateVideo } from '@mocap/fal';
import { type FalServer, makeCreature, removeCreatures, startFalServer, tinyMp4 } from '@mocap/test-utils';
import { afterAll, beforeAll, bench, describe } from 'vitest';

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
  await removeCreatures();
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

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { QueueJobError, type QueueWorker, renderDatasetOnQueue, startWorker } from '@mocap/queue';
import { QUEUE_NAME } from '@mocap/queue/internal';
import { startRedis, type TestRedis } from '@mocap/test-utils';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('submitJobs over a real redis-server: failures reach the submitter, cancel removes queued jobs', () => {
  let redis: TestRedis;
  let dir = '';
  beforeAll(async () => {
    redis = await startRedis();
    dir = await mkdtemp(path.join(tmpdir(), 'queue-submit-'));
  });
  afterAll(async () => {
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('cancelling before any worker runs: every queued job is removed and the submitter rejects', async () => {
    const ac = new AbortController();
    const queued: string[] = [];
    const run = renderDatasetOnQueue({
      url: redis.url,
      creature: dir,
      count: 6,
      shards: 3,
      version: 'v1',
      signal: ac.signal,
      pollMs: 50,
      onEvent: (e) => {
        if (e.kind === 'queued') queued.push(e.job);
        if (queued.length === 3) ac.abort();
      },
    });
    await expect(run).rejects.toThrow(
      'dataset: cancelled: 3 queued jobs removed, 0 running jobs told to stop.',
    );
    expect(queued).toEqual(
      [1, 2, 3].map((k) => `dataset shard ${k}/3 of ${path.join(dir, 'runs', 'dataset')}`),
    );
    const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    expect(await queue.getJobCounts('waiting', 'active', 'delayed')).toMatchObject({
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    await queue.close();
  });

  describe('with a worker', () => {
    let worker: QueueWorker;
    beforeAll(async () => {
      worker = await startWorker({ url: redis.url, version: 'v2' });
    });
    afterAll(async () => worker?.close());

    it('a job from another code version fails naming both versions, and the submitter rejects with it', async () => {
      const err = await renderDatasetOnQueue({
        url: redis.url,
        creature: dir,
        count: 2,
        shards: 1,
        version: 'v1',
        pollMs: 50,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QueueJobError);
      expect((err as Error).message).toMatch(
        new RegExp(
          `^dataset: dataset shard 1/1 of ${dir}/runs/dataset failed \\(job [\\w-]+\\): worker ${worker.name.replace(/[.]/g, '\\.')}: job [\\w-]+ \\(dataset shard 1/1 of ${dir}/runs/dataset\\) was submitted by code version v1; this worker runs v2\\. Run the submitter and every worker from the same build\\.$`,
        ),
      );
    });

    it('a job whose input the worker cannot see fails naming the path and the shared file system', async () => {
      const missing = path.join(dir, 'not-shared');
      await expect(
        renderDatasetOnQueue({
          url: redis.url,
          creature: missing,
          count: 2,
          shards: 2,
          version: 'v2',
          pollMs: 50,
        }),
      ).rejects.toThrow(
        `worker: creature folder ${missing} does not exist on this worker: inputs and outputs reach workers through a shared file system at the same absolute paths (docs/scale.md).`,
      );
    });
  });
});

import { captureOnQueue, renderDatasetOnQueue, renderExamOnQueue } from '@mocap/queue';
import { describeJob, QueueJob } from '@mocap/queue/internal';
import { describe, expect, it } from 'vitest';

// Nothing listens here: every call below must fail on its options before it connects.
const url = 'redis://127.0.0.1:1';

describe('QueueJob: what a job carries', () => {
  const shard = {
    kind: 'dataset-shard',
    version: 'v',
    creature: '/data/wolf',
    out: '/data/wolf/runs/dataset',
    count: 12,
    seed: 1,
    shard: { index: 2, of: 3 },
  };

  it('parses each kind and names it for messages', () => {
    expect(describeJob(QueueJob.parse(shard))).toBe('dataset shard 3/3 of /data/wolf/runs/dataset');
    const capture = { kind: 'capture', version: 'v', clip: '/c/trot.mp4', creature: '/w', out: '/w/o' };
    expect(describeJob(QueueJob.parse(capture))).toBe('capture of /c/trot.mp4');
    const exam = { kind: 'exam', version: 'v', creature: '/w', out: '/w/e', frames: 4, seed: 7 };
    expect(describeJob(QueueJob.parse(exam))).toBe('exam seed 7 of /w');
  });

  it("carries a capture's creature zoom, follow, report or apply only", () => {
    const capture = { kind: 'capture', version: 'v', clip: '/c/trot.mp4', creature: '/w', out: '/w/o' };
    expect(QueueJob.parse({ ...capture, creatureZoom: 'apply' })).toMatchObject({ creatureZoom: 'apply' });
    expect(QueueJob.parse({ ...capture, creatureZoom: 'follow' })).toMatchObject({ creatureZoom: 'follow' });
    expect(QueueJob.safeParse({ ...capture, creatureZoom: 'on' }).success).toBe(false);
  });

  it('refuses relative paths (workers share absolute ones), unknown fields and kinds', () => {
    expect(QueueJob.safeParse({ ...shard, creature: 'creatures/wolf' }).success).toBe(false);
    expect(QueueJob.safeParse({ ...shard, extra: 1 }).success).toBe(false);
    expect(QueueJob.safeParse({ ...shard, kind: 'train' }).success).toBe(false);
  });
});

describe('the ...OnQueue functions check their options before they connect', () => {
  it('renderDatasetOnQueue: shards and count are positive integers', async () => {
    await expect(renderDatasetOnQueue({ url, creature: '/w', count: 4, shards: 0 })).rejects.toThrow(
      new TypeError('renderDatasetOnQueue: expected shards to be a positive integer, got 0.'),
    );
  });

  it('captureOnQueue: two clips of one name would write one folder; out names one clip', async () => {
    await expect(
      captureOnQueue({ url, creature: '/w', clips: ['/a/trot.mp4', '/b/trot.mov'] }),
    ).rejects.toThrow(
      'captureOnQueue: clips /a/trot.mp4 and /b/trot.mov would both write /w/runs/capture/trot.',
    );
    await expect(
      captureOnQueue({ url, creature: '/w', clips: ['/a/x.mp4', '/a/y.mp4'], out: '/o' }),
    ).rejects.toThrow('captureOnQueue: expected one clip with out, got 2.');
  });

  it('renderExamOnQueue: distinct seeds', async () => {
    await expect(renderExamOnQueue({ url, creature: '/w', seeds: [1, 1], frames: 4 })).rejects.toThrow(
      'renderExamOnQueue: expected distinct seeds, got [1, 1].',
    );
  });
});

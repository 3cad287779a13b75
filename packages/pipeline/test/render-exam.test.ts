import { rm } from 'node:fs/promises';
import path from 'node:path';
import { prepareCreature, renderExam } from '@mocap/pipeline';
import { copyCreature, creatureDir } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const WOLF = creatureDir('wolf');

// The rendered exam end to end (real Blender, a tiny trained reader) runs in packages/cli/test/commands/capture.test.ts.
describe('renderExam: what it checks before it renders', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyCreature('wolf', {
      files: ['creature.json', 'rig.json'],
      prefix: 'pipeline-render-exam-',
    });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('names a missing reader and the commands that train one', async () => {
    const none = path.join(dir, 'no-reader');
    await expect(renderExam({ creature: dir, frames: 4, seed: 1, reader: none })).rejects.toThrow(
      `exam: ${path.join(none, 'model.json')}: no trained reader there; run \`mocap dataset\` then \`mocap train\` first`,
    );
  });

  it('names a creature that is not rigged', async () => {
    const blend = path.join(dir, 'runs', 'rigged', 'rigged.blend');
    await expect(
      renderExam({ creature: dir, frames: 4, seed: 1, reader: path.join(WOLF, 'reader') }),
    ).rejects.toThrow(`exam: ${blend}: missing; run \`mocap prep\` then \`mocap rig\` first.`);
  });
});

// The headline figure of the shipped wolf reader (docs/benchmarks.md: rendered exams of 120 frames,
// 0.64-0.82 cm mean, p95 1.8-2.4): a shorter clip of the same motion, bounded with a margin, so a
// change that breaks the reader, the refinement or the fit turns this red.
describe('renderExam with the shipped wolf reader (headline figure)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyCreature('wolf', { prefix: 'pipeline-wolf-exam-' });
    await prepareCreature(dir);
  }, 300_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('scores a 40-frame gait within the reader issue bounds (mean <= 1.2 cm, p95 <= 3.5 cm)', async () => {
    const r = await renderExam({ creature: dir, frames: 40, seed: 1, reader: path.join(WOLF, 'reader') });
    expect(r.frames).toBe(40);
    expect(r.error_cm.mean).toBeLessThanOrEqual(1.2);
    expect(r.error_cm.p95).toBeLessThanOrEqual(3.5);
    // The refinement earns its keep: the peaks alone are worse.
    expect(r.heatmaps?.error_cm.mean).toBeGreaterThan(r.error_cm.mean);
  }, 600_000);
});

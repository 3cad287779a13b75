import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { creaturePaths, renderDataset } from '@mocap/blender-bridge';
import { ExamReport } from '@mocap/layout';
import { trainReader } from '@mocap/reader';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const run = (argv: string[]) => runCli(argv, process.env);

const WOLF = fileURLToPath(new URL('../../../../creatures/wolf', import.meta.url));
const layout = { WIDTH: 320, HEIGHT: 180, W_FRONT: 105, W_SIDE: 215, GROUND_V: 160, M_PER_PX: 1.9 / 180 };

describe('mocap demo (real Blender)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cli-demo-'));
    const json = JSON.parse(await readFile(path.join(WOLF, 'creature.json'), 'utf8'));
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify({ ...json, layout }));
    for (const f of ['rig.json', 'model.glb']) await copyFile(path.join(WOLF, f), path.join(dir, f));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('preps and rigs the creature, then runs the synthetic exam and says what the rendered one needs', async () => {
    const r = await run(['demo', '--creature', dir, '--frames', '12', '--json']);
    expect(r.err).toContain(`prep: ${path.join(dir, 'model.glb')}`);
    expect(r.err).toContain(`rig: ${path.join(dir, 'rig.json')}`);
    expect(r.err).toContain('the rendered exam needs `mocap dataset');
    expect(r.err).toContain('`mocap train');
    expect(r.code).toBe(0);
    const report = ExamReport.parse(JSON.parse(r.out));
    expect(report).toMatchObject({ mode: 'synthetic', frames: 12, creature: 'wolf' });
    expect(Number.isFinite(report.error_cm.mean)).toBe(true);
  }, 300_000);

  it('with a trained reader, skips prep and rig and runs the rendered exam', async () => {
    const p = creaturePaths(dir);
    await renderDataset({ creature: dir, count: 4, seed: 1 });
    await trainReader({
      dataset: p.dataset,
      out: path.join(p.runs, 'reader'),
      layout,
      model: { inputSize: 64, backbone: { kind: 'cnn', widths: [8, 8] } },
      steps: 2,
      batchSize: 2,
      heldOut: 0.25,
      seed: 1,
    });
    const r = await run(['demo', '--creature', dir, '--frames', '3']);
    expect(r.err).toContain('prep: done already');
    expect(r.err).toContain('rig: done already');
    expect(r.err).toContain('exam --render: 3 frames, seed 1');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wolf \(render\): 3 frames, seed 1, rendered in Blender/);
    expect(r.out).toMatch(/error cm: mean \d+\.\d{3}, median/);
  }, 300_000);

  it('explains bad arguments', async () => {
    const bad = await run(['demo', '--creature', dir, '--frames', '1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--frames: Expected a whole number >= 2, got "1"');
  });
});

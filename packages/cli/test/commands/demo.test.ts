import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ExamReport } from '@mocap/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyQuarterWolf, trainTinyReader } from '../helpers/quarter-wolf.js';
import { runCli } from '../helpers/run-cli.js';

const run = (argv: string[]) => runCli(argv, process.env);

describe('mocap demo (real Blender)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyQuarterWolf('cli-demo-');
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
    await trainTinyReader(dir);
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

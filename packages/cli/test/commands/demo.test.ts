import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { validateGltf } from '@mocap/blender-bridge';
import { ExamReport, TruthJson } from '@mocap/layout';
import { probeVideo } from '@mocap/media';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyQuarterWolf, trainTinyReader } from '../helpers/quarter-wolf.js';
import { runCli } from '../helpers/run-cli.js';

const run = (argv: string[]) => runCli(argv, process.env);

/** Frames of the known clip: the fewest capture's detect calibrates a clip from (MIN_CLIP_FRAMES). */
const FRAMES = 8;

describe('mocap demo (real Blender)', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await copyQuarterWolf('cli-demo-');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('preps, rigs and frames the creature, then runs the synthetic exam and says what the capture needs', async () => {
    const r = await run(['demo', '--creature', dir, '--frames', '12', '--json']);
    expect(r.err).toContain(`prep: ${path.join(dir, 'model.glb')}`);
    expect(r.err).toContain(`rig: ${path.join(dir, 'rig.json')}`);
    expect(r.err).toContain(`ref: ${path.join(dir, 'runs', 'rigged', 'rigged.blend')}`);
    expect(r.err).toContain('the capture needs `mocap dataset');
    expect(r.err).toContain('`mocap train');
    expect(r.code).toBe(0);
    const report = ExamReport.parse(JSON.parse(r.out));
    expect(report).toMatchObject({ mode: 'synthetic', frames: 12, creature: 'wolf' });
    expect(Number.isFinite(report.error_cm.mean)).toBe(true);
  }, 300_000);

  it('with a trained reader, captures the rendered known clip: a valid animation.glb, a playable showcase.mp4, the score', async () => {
    await trainTinyReader(dir);
    const r = await run(['demo', '--creature', dir, '--frames', String(FRAMES)]);
    expect(r.err).toContain(`prep: done already (${path.join(dir, 'runs', 'prep', 'static.blend')})`);
    expect(r.err).toContain('rig: done already');
    expect(r.err).toContain(`ref: done already (${path.join(dir, 'runs', 'ref', 'ref.png')})`);
    expect(r.err).toContain(`render: ${FRAMES} frames of the seeded gait (seed 1)`);
    expect(r.err).toMatch(
      /detect\.\.\.[\s\S]*solve\.\.\.\napply\.\.\.[\s\S]*showcase\.\.\.[\s\S]*score\.\.\./,
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^wolf \\(render\\): ${FRAMES} frames, seed 1, rendered in Blender`));
    expect(r.out).toMatch(/error cm: mean \d+\.\d{3}, median/);
    expect(r.out).toMatch(
      /seconds: prepare [\d.]+ s, render [\d.]+ s, capture [\d.]+ s \(detect [\d.]+ s, refine [\d.]+ s, solve [\d.]+ s, apply [\d.]+ s, showcase [\d.]+ s\), total [\d.]+ s/,
    );
    const out = path.join(dir, 'runs', 'demo');
    const file = (label: string) => new RegExp(`^${label}: +(.+)$`, 'm').exec(r.out)?.[1];
    expect(file('animation')).toBe(path.join(out, 'animation.glb'));
    expect(file('showcase')).toBe(path.join(out, 'showcase.mp4'));
    expect(file('report')).toBe(path.join(out, 'report.json'));
    expect((await validateGltf(path.join(out, 'animation.glb'))).errors).toBe(0);
    const video = await probeVideo(path.join(out, 'showcase.mp4'));
    expect(video.frames).toBe(FRAMES);
    const report = ExamReport.parse(JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')));
    expect(report).toMatchObject({ mode: 'render', frames: FRAMES, seed: 1, creature: 'wolf' });
    expect(Number.isFinite(report.error_cm.mean)).toBe(true);
    const truth = TruthJson.parse(JSON.parse(await readFile(path.join(out, 'truth.json'), 'utf8')));
    expect(truth.joints).toHaveLength(FRAMES);
  }, 600_000);

  it('explains bad arguments', async () => {
    const bad = await run(['demo', '--creature', dir, '--frames', '1']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--frames: Expected a whole number >= 2, got "1"');
  });
});

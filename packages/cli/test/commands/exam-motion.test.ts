// Uses the Khronos glTF sample model Fox (creatures/fox/model.glb, a copy of ../shared/fixtures/fox/Fox.glb). Credits: CC0 low
// poly fox by PixelMannen; CC-BY 4.0 rigging and animation by @tomkranis on Sketchfab; glTF conversion by @AsoboStudio and @scurest.
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExamReport, RigJson } from '@mocap/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const WOLF = fileURLToPath(new URL('../../../../creatures/wolf', import.meta.url));
const FOX = fileURLToPath(new URL('../../../../creatures/fox/model.glb', import.meta.url));

/** A BVH of the wolf's own skeleton (rig.json heads as OFFSETs, metres, Z up): every joint swinging a few degrees. */
function wolfBvh(rig: RigJson, frames: number): string {
  const bones = rig.bones;
  const head = (b: number) => rig.joints[bones[b]![1]]!;
  const lines = ['HIERARCHY'];
  const order: number[] = [];
  const block = (b: number, depth: number) => {
    order.push(b);
    const pad = ' '.repeat(depth);
    const p = bones.findIndex((x) => x[0] === bones[b]![3]);
    const off = p < 0 ? head(b) : head(b).map((v, c) => v - head(p)[c]!);
    lines.push(
      `${pad}${p < 0 ? 'ROOT' : 'JOINT'} ${bones[b]![0]}`,
      `${pad}{`,
      `${pad} OFFSET ${off.join(' ')}`,
    );
    lines.push(
      `${pad} CHANNELS ${p < 0 ? '6 Xposition Yposition Zposition' : '3'} Zrotation Xrotation Yrotation`,
    );
    const kids = bones.flatMap((x, i) => (x[3] === bones[b]![0] ? [i] : []));
    for (const k of kids) block(k, depth + 1);
    if (kids.length === 0) {
      const t = rig.joints[bones[b]![2]]!.map((v, c) => v - head(b)[c]!);
      lines.push(`${pad} End Site`, `${pad} {`, `${pad}  OFFSET ${t.join(' ')}`, `${pad} }`);
    }
    lines.push(`${pad}}`);
  };
  block(0, 0);
  lines.push('MOTION', `Frames: ${frames}`, 'Frame Time: 0.0333333');
  for (let f = 0; f < frames; f++) {
    const row = order.flatMap((b, i) => {
      const swing = [4 * Math.sin(0.2 * f + i), 8 * Math.sin(0.3 * f + 2 * i), 3 * Math.cos(0.25 * f + i)];
      return b === 0 ? [...head(0), ...swing] : swing;
    });
    lines.push(row.map((v) => v.toFixed(6)).join(' '));
  }
  return `${lines.join('\n')}\n`;
}

describe('mocap exam --motion', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cli-exam-motion-'));
    for (const f of ['creature.json', 'rig.json']) await copyFile(path.join(WOLF, f), path.join(dir, f));
    const rig = RigJson.parse(JSON.parse(await readFile(path.join(WOLF, 'rig.json'), 'utf8')));
    await writeFile(path.join(dir, 'swing.bvh'), wolfBvh(rig, 45));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('--synthetic scores the fit on a BVH of the creature, looped to --frames, and the report names it', async () => {
    const r = await runCli(
      [
        'exam',
        '--synthetic',
        '--creature',
        dir,
        '--motion',
        path.join(dir, 'swing.bvh'),
        '--frames',
        '30',
        '--noise-px',
        '0',
        '--outliers',
        '0',
        '--json',
      ],
      process.env,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = ExamReport.parse(JSON.parse(r.out));
    expect(report.motion).toBe(path.join(dir, 'swing.bvh'));
    expect(report.frames).toBe(30);
    expect(report.error_cm.mean).toBeLessThan(0.5);
    const text = await runCli(
      ['exam', '--synthetic', '--creature', dir, '--motion', path.join(dir, 'swing.bvh'), '--frames', '20'],
      process.env,
    );
    expect(text.out).toContain(`wolf (synthetic, motion ${path.join(dir, 'swing.bvh')}): 20 frames`);
  });

  it("refuses a motion of another skeleton, naming the creature's bones it lacks", async () => {
    const r = await runCli(
      ['exam', '--synthetic', '--creature', dir, '--motion', `${FOX}#Walk`, '--frames', '10'],
      process.env,
    );
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(
      /exam: .*model\.glb#Walk: the creature's bones "hips", "spine1", .* are not joints of the motion/,
    );
  });

  it('names the animations of a glb when the one asked for is missing', async () => {
    const r = await runCli(
      ['exam', '--synthetic', '--creature', dir, '--motion', `${FOX}#Trot`],
      process.env,
    );
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('no animation "Trot" (it has Survey, Walk, Run)');
  });
});

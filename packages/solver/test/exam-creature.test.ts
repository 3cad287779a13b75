import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { boneRestMatrix } from '@mocap/anim-loop';
import { creaturePaths, limitsFor, type RigInfo, type RigJson } from '@mocap/layout';
import { creatureInfo, examCreature } from '@mocap/solver';
import {
  creatureRigFile,
  rigJsonKeypoints,
  rigModelFromRigInfo,
  syntheticExam,
} from '@mocap/solver/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOX, foxSkinRig } from './helpers/fox-skin-rig.js';
import { loadCreature } from './helpers.js';

/** rig_info.json as build_rig would write it for `rig` with every joint scaled by `s` (a bigger wolf). */
function scaledRigInfo(rig: RigJson, s: number): RigInfo {
  const m4 = new Float64Array(16);
  const at = (j: string) =>
    (rig.joints[j] as [number, number, number]).map((v) => v * s) as [number, number, number];
  return {
    armature: 'Armature',
    root: rig.bones.find((b) => b[3] === null)?.[0] as string,
    bones: rig.bones.map(([name, head, tail, parent]) => {
      const h = at(head);
      const t = at(tail);
      const roll = ((rig.roll_deg[name] ?? 0) * Math.PI) / 180;
      boneRestMatrix(m4, h, t, roll);
      const row = (r: number) => [0, 1, 2, 3].map((c) => m4[c * 4 + r] as number);
      return {
        name,
        parent,
        head: h,
        tail: t,
        roll,
        length: Math.hypot(t[0] - h[0], t[1] - h[1], t[2] - h[2]),
        matrix_local: [row(0), row(1), row(2), row(3)],
        limits_deg: limitsFor(rig, name) ?? [
          [-180, 180],
          [-180, 180],
          [-180, 180],
        ],
      } as RigInfo['bones'][number];
    }),
    keypoints: rigJsonKeypoints(rig),
  };
}

const OPTIONS = { frames: 10, seed: 1, noisePx: 2 };

describe('examCreature', () => {
  let dir = '';
  const wolf = loadCreature('wolf');
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'solver-exam-creature-'));
    for (const f of ['creature.json', 'rig.json']) await copyFile(path.join(wolf.dir, f), path.join(dir, f));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('runs the synthetic exam of an unrigged creature on its rig.json', async () => {
    expect(creatureRigFile(dir)).toBe(path.join(dir, 'rig.json'));
    const report = await examCreature(dir, { frames: 10, seed: 1, noisePx: 0 });
    expect(report.creature).toBe('wolf');
    expect(report.error_cm.mean).toBeLessThan(0.05);
    expect(Object.keys(report.per_group)).toContain('front_left');
  });

  it("fits a rigged creature's runs/rigged/rig_info.json (where mocap rig writes it), not its rig.json", async () => {
    const info = scaledRigInfo(wolf.rig, 1.25);
    const file = creaturePaths(dir).rigInfo;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify(info));
    expect(creatureRigFile(dir)).toBe(file);
    const model = rigModelFromRigInfo(info, file);
    const expected = syntheticExam(
      model,
      'wolf',
      wolf.layout,
      creatureInfo(model, wolf.creature),
      OPTIONS,
    ).report;
    const fromRigJson = syntheticExam(wolf.model, 'wolf', wolf.layout, wolf.info, OPTIONS).report;
    const report = await examCreature(dir, OPTIONS);
    expect(report.error_cm).toEqual(expected.error_cm);
    expect(report.per_joint).toEqual(expected.per_joint);
    expect(report.error_cm.mean).not.toBe(fromRigJson.error_cm.mean);
  });

  it('names the rig_info.json it read when that file is broken', async () => {
    const file = creaturePaths(dir).rigInfo;
    await writeFile(file, '{"bones": []}');
    await expect(examCreature(dir, OPTIONS)).rejects.toThrow(file);
  });
});

describe('examCreature with a motion (a real clip as the truth)', () => {
  let fox = '';
  beforeAll(async () => {
    fox = await mkdtemp(path.join(tmpdir(), 'solver-exam-motion-'));
    const { rig, creature } = await foxSkinRig();
    await writeFile(path.join(fox, 'rig.json'), JSON.stringify(rig));
    await writeFile(path.join(fox, 'creature.json'), JSON.stringify(creature));
  });
  afterAll(() => rm(fox, { recursive: true, force: true }));

  it("scores the fit on the Fox's own Walk, looped to the frames asked, and says so in the report", async () => {
    const report = await examCreature(fox, { frames: 30, seed: 1, noisePx: 0, motion: `${FOX}#Walk` });
    expect(report.motion).toBe(`${FOX}#Walk`);
    expect(report.frames).toBe(30);
    expect(report.error_cm.mean).toBeLessThan(0.5);
    expect(report.per_joint).toHaveProperty('b_LeftHand_011_end');
  });

  it("follows the Walk's paw flicks that the jerk prior alone flattens (the lag release)", async () => {
    const exam = (lagRelease?: null) =>
      examCreature(fox, {
        frames: 120,
        seed: 1,
        noisePx: 2,
        outliers: 0.05,
        motion: `${FOX}#Walk`,
        ...(lagRelease === null ? { fit: { lagRelease } } : {}),
      });
    const [released, held] = [await exam(), await exam(null)];
    expect(released.error_cm.mean).toBeLessThan(0.8 * held.error_cm.mean);
    expect(released.error_cm.p95).toBeLessThan(0.7 * held.error_cm.p95);
  });

  it("names the creature's bones a motion lacks (the Fox's Walk on the wolf)", async () => {
    const wolfDir = loadCreature('wolf').dir;
    await expect(examCreature(wolfDir, { frames: 10, seed: 1, motion: `${FOX}#Walk` })).rejects.toThrow(
      /^exam: .*model\.glb#Walk: the creature's bones "hips", "spine1", .* are not joints of the motion/,
    );
  });
});

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreatureJson, Layout, MotionJson, RigJson, writeDetections } from '@mocap/layout';
import { creatureInfo, gaitMotion, rigModelFromRigJson, syntheticDetections } from '@mocap/solver';
import { tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../helpers/run-cli.js';

const temp = tempDirs();
const wolf = fileURLToPath(new URL('../../../../creatures/wolf', import.meta.url));

async function creature() {
  const rig = RigJson.parse(JSON.parse(await readFile(path.join(wolf, 'rig.json'), 'utf8')));
  const cj = CreatureJson.parse(JSON.parse(await readFile(path.join(wolf, 'creature.json'), 'utf8')));
  const model = rigModelFromRigJson(rig);
  return { model, info: creatureInfo(model, cj), layout: Layout.parse(cj.layout) };
}

describe('mocap solve', () => {
  it("prints and records the uneven timing of a clip picked from a 30 fps source at 24 fps; an even clip's stays unrecorded", async () => {
    const { model, info, layout } = await creature();
    const names = model.keypoints.map((k) => k.name);
    const k = names.length;
    const source = gaitMotion(model, info, { frames: 150, seed: 3 });
    const picks = Array.from({ length: 120 }, (_, f) => Math.round(f * 1.25));
    const joints = new Float64Array(picks.length * k * 3);
    for (const [f, s] of picks.entries())
      joints.set(source.joints.subarray(s * k * 3, (s + 1) * k * 3), f * k * 3);
    const dir = await temp.make('mocap-solve-');
    const clips = {
      uneven: syntheticDetections(joints, names, 24, layout, info, { noisePx: 0.5, seed: 1 }),
      even: syntheticDetections(source.joints, names, 30, layout, info, { noisePx: 0.5, seed: 1 }),
    };
    for (const [name, det] of Object.entries(clips)) {
      const file = path.join(dir, `${name}.npz`);
      const out = path.join(dir, `${name}.json`);
      await writeDetections(file, det);
      const r = await run([
        'solve',
        '--det',
        file,
        '--rig',
        path.join(wolf, 'rig.json'),
        '--creature',
        wolf,
        '--out',
        out,
      ]);
      expect(r.code, r.err).toBe(0);
      const motion = MotionJson.parse(JSON.parse(await readFile(out, 'utf8')));
      if (name === 'even') {
        expect(r.out).not.toContain('frame timing');
        expect(motion.frame_timing).toBeUndefined();
        continue;
      }
      expect(r.out).toContain(
        'frame timing: 120 frames picked unevenly from a 30 fps source (120 of its 150 frames)',
      );
      expect(motion.frame_timing?.source_frames).toEqual(picks);
      expect(motion.fps).toBe(24);
      expect(motion.trans).toHaveLength(120);
    }
  });
});

import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mirrorMap } from '@mocap/anim-loop';
import { buildLoraSet, creatureMirror } from '@mocap/fal';
import { mirrorCaption } from '@mocap/fal/internal';
import { CreatureJson, MotionJson, readJsonFile } from '@mocap/layout';
import { creatureDir, makeCreature, removeCreatures } from '@mocap/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { testRenderer } from './helpers/test-renderer.js';
import { wolfMotion } from './helpers/wolf-motion.js';

afterAll(removeCreatures);

const WOLF = creatureDir('wolf', 'creature.json');

describe('buildLoraSet with the wolf', () => {
  it("holds mirrored clips whose joints are the mirror of the originals' (X negated, sides swapped)", async () => {
    const creature = await readJsonFile('test', WOLF, CreatureJson);
    const dir = await makeCreature();
    const motionFile = path.join(dir, 'trot.motion.json');
    await writeFile(motionFile, JSON.stringify(wolfMotion(5, 6)));
    const set = await buildLoraSet({
      creatureDir: dir,
      moves: [{ move: 'trot', motionFile }],
      trigger: 'wolf_moves',
      renderer: testRenderer(),
      mirror: creatureMirror(creature),
    });
    const [orig, mirr] = set.clips;
    expect(orig?.mirrored).toBe(false);
    expect(mirr?.mirrored).toBe(true);
    const a = JSON.parse(await readFile(orig!.jointsFile!, 'utf8')) as number[][][];
    const b = JSON.parse(await readFile(mirr!.jointsFile!, 'utf8')) as number[][][];
    const motion = await readJsonFile('test', motionFile, MotionJson);
    const partner = mirrorMap(motion.names, creature.mirror);
    expect(partner.get('fpaw.L')).toBe('fpaw.R');
    let checked = 0;
    for (let t = 0; t < a.length; t++) {
      motion.names.forEach((n, j) => {
        const k = motion.names.indexOf(partner.get(n)!);
        const [x, y, z] = a[t]![j]!;
        expect(b[t]![k]).toEqual([0 - x!, y, z]);
        checked++;
      });
    }
    expect(checked).toBe(6 * motion.names.length);
    // the mirrored motion on disk is the one rendered: bones swapped, Y/Z angles negated
    const mm = await readJsonFile('test', mirr!.motionFile, MotionJson);
    const iL = motion.bones.indexOf('fupper.L');
    const iR = motion.bones.indexOf('fupper.R');
    const [ex, ey, ez] = motion.euler[2]![iL]!;
    expect(mm.euler[2]![iR]).toEqual([ex, 0 - ey!, 0 - ez!]);
    expect(mm.trans[3]![0]).toBe(0 - motion.trans[3]![0]!);
  });

  it('swaps left and right in captions, whole words only', () => {
    expect(mirrorCaption('lifts its left forepaw, then Right hind leg; leftover brightness')).toBe(
      'lifts its right forepaw, then Left hind leg; leftover brightness',
    );
  });

  it('writes the same zip bytes for the same motions', async () => {
    const dir = await makeCreature();
    const motionFile = path.join(dir, 'sit.motion.json');
    await writeFile(motionFile, JSON.stringify(wolfMotion(2)));
    const opts = {
      creatureDir: dir,
      moves: [{ move: 'sit', motionFile }],
      trigger: 't',
      mirror: creatureMirror({}),
    };
    const one = await buildLoraSet({ ...opts, outDir: path.join(dir, 'a'), renderer: testRenderer() });
    const two = await buildLoraSet({ ...opts, outDir: path.join(dir, 'b'), renderer: testRenderer() });
    expect(two.zipSha256).toBe(one.zipSha256);
  });

  it('rejects a renderer that writes no MP4, naming it', async () => {
    const dir = await makeCreature();
    const motionFile = path.join(dir, 'sit.motion.json');
    await writeFile(motionFile, JSON.stringify(wolfMotion(2)));
    await expect(
      buildLoraSet({
        creatureDir: dir,
        moves: [{ move: 'sit', motionFile }],
        trigger: 't',
        mirror: creatureMirror({}),
        renderer: {
          name: 'broken',
          async render({ out }) {
            await writeFile(out, 'not a video');
            return {};
          },
        },
      }),
    ).rejects.toThrow(/lora: renderer "broken" wrote .*: only 11 bytes/);
  });
});

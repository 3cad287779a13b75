import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CreatureJson, type RigJson } from '@mocap/layout';
import { creatureInfo } from '@mocap/solver';
import { proposeCreature, readGlbSkeleton, rigJsonSkeleton } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

// The Khronos glTF sample model Fox (creatures/fox/model.glb, a byte copy of Fox.glb). Credits:
// CC0 low poly fox by PixelMannen (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0
// rigging and animation by @tomkranis (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc);
// glTF conversion by @AsoboStudio and @scurest.
const FOX = fileURLToPath(new URL('../../../creatures/fox/model.glb', import.meta.url));

const sorted = (xs: string[]) => [...xs].sort();
const groups = (paint: { name: string; bones: string[] }[] | undefined) =>
  Object.fromEntries((paint ?? []).map((g) => [g.name, g.bones]));

/** The wolf's rig.json with every bone and joint renamed by `rename`. */
function renamed(rig: RigJson, rename: (name: string) => string): RigJson {
  return {
    ...rig,
    joints: Object.fromEntries(Object.entries(rig.joints).map(([k, v]) => [rename(k), v])),
    bones: rig.bones.map(([n, h, t, p]) => [rename(n), rename(h), rename(t), p === null ? null : rename(p)]),
  };
}

describe('proposeCreature', () => {
  it("proposes the wolf's own pairs, feet, paint groups and colours from its rig.json", () => {
    const { rig, creature, model, info } = loadCreature('wolf');
    const { creature: proposed, notes } = proposeCreature(rigJsonSkeleton(rig), { name: 'wolf' });
    expect(proposed.mirror).toEqual(creature.mirror);
    expect(sorted(proposed.feet ?? [])).toEqual(sorted(creature.feet));
    expect(proposed.paint).toEqual(
      creature.paint.map(({ name, colour, bones }) => ({ name, colour, bones })),
    );
    expect(proposed.colour_code).toBe(creature.colour_code);
    expect(proposed.prep).toEqual(creature.prep);
    expect(proposed.limbs).toBe('four legs');
    // What the solver makes of it (ground term, swap fix, exam groups) is what it makes of the wolf's.
    const mine = creatureInfo(model, CreatureJson.parse(proposed));
    expect(sorted(mine.feet.map(String))).toEqual(sorted(info.feet.map(String)));
    expect(mine.pairs).toEqual(info.pairs);
    expect(mine.swapUnits).toEqual(info.swapUnits);
    expect(mine.groups).toEqual(info.groups);
    expect(notes.join('\n')).not.toMatch(/mirrored positions|no partner/);
  });

  it.each([
    ['L_/R_ prefixes', (s: string, side: string) => `${side}_${s}`],
    ['_l/_r suffixes', (s: string, side: string) => `${s}_${side.toLowerCase()}`],
    [
      'Left/Right in the name',
      (s: string, side: string) => `${s.slice(0, 1)}${side === 'L' ? 'Left' : 'Right'}${s.slice(1)}`,
    ],
    ['rig:L_ namespaces', (s: string, side: string) => `rig:${side}_${s}`],
  ])('pairs the wolf by name with %s', (_, style) => {
    const { rig, creature } = loadCreature('wolf');
    const rename = (n: string) =>
      n.replace(/^(.*)\.([LR])$/, (_m, s: string, side: string) => style(s, side));
    const { creature: proposed, notes } = proposeCreature(rigJsonSkeleton(renamed(rig, rename)), {
      name: 'wolf',
    });
    const want = Object.fromEntries(
      Object.entries(creature.mirror ?? {}).map(([a, b]) => [rename(a), rename(b)]),
    );
    expect(proposed.mirror).toEqual(want);
    expect(sorted(proposed.feet ?? [])).toEqual(sorted(creature.feet.map(rename)));
    expect(groups(proposed.paint)).toEqual(
      Object.fromEntries(creature.paint.map((g) => [g.name, g.bones.map(rename)])),
    );
    expect(notes.join('\n')).not.toMatch(/mirrored positions/);
  });

  it('pairs bones by mirrored positions when the names say no side, +X as left', () => {
    const { rig, creature } = loadCreature('wolf');
    const index = new Map([...Object.keys(rig.joints), ...rig.bones.map((b) => b[0])].map((n, i) => [n, i]));
    const rename = (n: string) => `part${index.get(n)}`;
    const { creature: proposed, notes } = proposeCreature(rigJsonSkeleton(renamed(rig, rename)), {
      name: 'x',
    });
    const want = Object.fromEntries(
      Object.entries(creature.mirror ?? {}).map(([a, b]) => [rename(a), rename(b)]),
    );
    expect(proposed.mirror).toEqual(want);
    expect(sorted(proposed.feet ?? [])).toEqual(sorted(creature.feet.map(rename)));
    expect(groups(proposed.paint)).toEqual(
      Object.fromEntries(creature.paint.map((g) => [g.name, g.bones.map(rename)])),
    );
    expect(notes.join('\n')).toMatch(/8 pairs from mirrored positions/);
  });

  it("finds the Khronos Fox's four legs, their left/right pairs and feet from its glb skin", async () => {
    const skeleton = await readGlbSkeleton('init', FOX);
    expect(skeleton.bones).toHaveLength(24);
    const { creature: proposed, notes } = proposeCreature(skeleton, { name: 'fox' });
    expect(proposed.mirror).toEqual({
      b_LeftUpperArm_09: 'b_RightUpperArm_06',
      b_LeftForeArm_010: 'b_RightForeArm_07',
      b_LeftHand_011: 'b_RightHand_08',
      b_LeftLeg01_015: 'b_RightLeg01_019',
      b_LeftLeg02_016: 'b_RightLeg02_020',
      b_LeftFoot01_017: 'b_RightFoot01_021',
      b_LeftFoot02_018: 'b_RightFoot02_022',
    });
    expect(groups(proposed.paint)).toEqual({
      front_left: ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'],
      front_right: ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'],
      hind_left: ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017', 'b_LeftFoot02_018'],
      hind_right: ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021', 'b_RightFoot02_022'],
    });
    // The skin rig's keypoints: each bone's head, each leaf's tail `<bone>_end`.
    expect(sorted(proposed.feet ?? [])).toEqual(
      sorted([
        'b_LeftHand_011_end',
        'b_RightHand_08_end',
        'b_LeftFoot02_018',
        'b_LeftFoot02_018_end',
        'b_RightFoot02_022',
        'b_RightFoot02_022_end',
      ]),
    );
    expect(CreatureJson.safeParse(proposed).success).toBe(true);
    expect(notes.join('\n')).toMatch(/prep\.length_m: 154\.7 .* set the creature's real length/);
  });

  it("pairs the Fox's legs by mirrored positions once its bones are renamed with no side, +X left as its names say", async () => {
    const s = await readGlbSkeleton('init', FOX);
    const id = new Map(s.bones.map((b, i) => [b.name, `n${i}`]));
    const r = (n: string) => (n.endsWith('_end') ? `${id.get(n.slice(0, -4))}_end` : id.get(n)!);
    const anon = {
      ...s,
      bones: s.bones.map((b) => ({ ...b, name: r(b.name), parent: b.parent === null ? null : r(b.parent) })),
      keypoints: s.keypoints.map((k) => ({ ...k, name: r(k.name), bone: r(k.bone) })),
    };
    const named = proposeCreature(s, { name: 'fox' }).creature;
    const { creature: proposed, notes } = proposeCreature(anon, { name: 'fox' });
    expect(proposed.mirror).toEqual(
      Object.fromEntries(Object.entries(named.mirror ?? {}).map(([a, b]) => [r(a), r(b)])),
    );
    expect(groups(proposed.paint)).toEqual(
      Object.fromEntries((named.paint ?? []).map((g) => [g.name, g.bones.map(r)])),
    );
    expect(sorted(proposed.feet ?? [])).toEqual(sorted((named.feet ?? []).map(r)));
    expect(notes.join('\n')).toMatch(/7 pairs from mirrored positions/);
  });

  it("agrees with fox-rigged's hand-written creature.json (the same Fox) on pairs, feet and paint", async () => {
    const dir = fileURLToPath(new URL('../../../creatures/fox-rigged/', import.meta.url));
    const hand = CreatureJson.parse(JSON.parse(readFileSync(`${dir}creature.json`, 'utf8')));
    const { creature: proposed } = proposeCreature(await readGlbSkeleton('init', `${dir}model.glb`), {
      name: 'fox-rigged',
    });
    expect(proposed.mirror).toEqual(hand.mirror);
    expect(sorted(proposed.feet ?? [])).toEqual(sorted(hand.feet));
    expect(proposed.paint).toEqual(hand.paint.map(({ name, colour, bones }) => ({ name, colour, bones })));
    expect(proposed.colour_code).toBe(hand.colour_code);
  });
});

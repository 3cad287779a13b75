import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mat3FromEuler } from '@mocap/anim-loop';
import { CreatureJson, RigJson } from '@mocap/layout';
import { clipMotion, creatureInfo, readMotionClip, rigModelFromRigJson } from '@mocap/solver';
import { parseBvhClip, sampleClipWorld } from '@mocap/solver/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** A small branched skeleton (Y up, centimetres): name, parent, offset. */
const JOINTS: [string, number, [number, number, number]][] = [
  ['Hips', -1, [0, 40, 0]],
  ['Spine', 0, [0, 2, -12]],
  ['Neck', 1, [0, 6, -10]],
  ['LegL', 0, [5, -4, 2]],
  ['LegR', 0, [-5, -4, 2]],
];
const END: [number, number, number] = [0, -10, 0];
const FRAMES = 6;
const DT = 0.04;

/** Degrees of joint j's Z, X, Y rotation channels at frame f. */
function angles(j: number, f: number): [number, number, number] {
  return [10 * Math.sin(f + j), 25 * Math.sin(0.7 * f - j), -15 * Math.cos(0.5 * f + 2 * j)];
}
const rootPos = (f: number): [number, number, number] => [3 * f, 40 + Math.sin(f), -2 * f];

function writeBvh(): string {
  const lines = ['HIERARCHY'];
  const block = (j: number, depth: number) => {
    const pad = '  '.repeat(depth);
    const [name, , off] = JOINTS[j]!;
    lines.push(`${pad}${j === 0 ? 'ROOT' : 'JOINT'} ${name}`, `${pad}{`, `${pad}  OFFSET ${off.join(' ')}`);
    lines.push(
      `${pad}  CHANNELS ${j === 0 ? '6 Xposition Yposition Zposition' : '3'} Zrotation Xrotation Yrotation`,
    );
    const kids = JOINTS.flatMap((k, i) => (k[1] === j ? [i] : []));
    for (const k of kids) block(k, depth + 1);
    if (kids.length === 0)
      lines.push(`${pad}  End Site`, `${pad}  {`, `${pad}    OFFSET ${END.join(' ')}`, `${pad}  }`);
    lines.push(`${pad}}`);
  };
  block(0, 0);
  lines.push('MOTION', `Frames: ${FRAMES}`, `Frame Time: ${DT}`);
  // Channel values follow the hierarchy's order (depth first, as written above).
  const order = [0, 1, 2, 3, 4];
  for (let f = 0; f < FRAMES; f++)
    lines.push(order.flatMap((j) => [...(j === 0 ? rootPos(f) : []), ...angles(j, f)]).join(' '));
  return `${lines.join('\n')}\n`;
}

/** World positions of the joints at frame f by FK written here: R = Rz Rx Ry (Blender's 'YXZ'), degrees. */
function fk(f: number): number[][] {
  const rot: Float64Array[] = [];
  const pos: number[][] = [];
  JOINTS.forEach(([, p, off], j) => {
    const [z, x, y] = angles(j, f).map((d) => (d * Math.PI) / 180) as [number, number, number];
    const local = mat3FromEuler(new Float64Array(9), [x, y, z], 'YXZ');
    if (p < 0) {
      rot.push(local);
      pos.push(rootPos(f));
      return;
    }
    const r = rot[p]!;
    const w = new Float64Array(9);
    for (let c = 0; c < 3; c++)
      for (let row = 0; row < 3; row++)
        w[c * 3 + row] = [0, 1, 2].reduce((s, k) => s + r[k * 3 + row]! * local[c * 3 + k]!, 0);
    rot.push(w);
    pos.push(
      [0, 1, 2].map((row) => pos[p]![row]! + [0, 1, 2].reduce((s, k) => s + r[k * 3 + row]! * off[k]!, 0)),
    );
  });
  return pos;
}

let dir = '';
let file = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'solver-bvh-'));
  file = path.join(dir, 'walk.bvh');
  await writeFile(file, writeBvh());
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('parseBvhClip', () => {
  it('poses the joints as FK of the channels (rotations in the listed order, root position absolute)', async () => {
    const clip = await readMotionClip(file);
    expect(clip.names).toEqual(JOINTS.map((j) => j[0]));
    expect(clip.end).toBeCloseTo((FRAMES - 1) * DT, 12);
    const world = new Float64Array(JOINTS.length * 16);
    for (let f = 0; f < FRAMES; f++) {
      sampleClipWorld(world, clip, f * DT);
      const want = fk(f);
      JOINTS.forEach((_, j) => {
        for (let c = 0; c < 3; c++) expect(world[j * 16 + 12 + c]).toBeCloseTo(want[j]![c]!, 9);
      });
    }
  });

  it('names the file and what it expected on a broken file', () => {
    expect(() => parseBvhClip('HIERARCHY\nROOT Hips\n{\n OFFSET 0 0\n}', 'bad.bvh')).toThrow(
      'motion: bad.bvh: OFFSET z: expected a number, got "}" (token 8).',
    );
    expect(() => parseBvhClip(writeBvh().replace('Zrotation', 'Qrotation'), 'bad.bvh')).toThrow(
      /joint "Hips": unknown channel "Qrotation"/,
    );
  });
});

describe('a BVH on a rig of its skeleton (round trip)', () => {
  it('the rig moves its joints where the BVH puts them, scaled into the rig frame', async () => {
    // The rig: the BVH's rest skeleton at 1 cm = 0.01 m, turned Z up, as a person would build it.
    const s = 0.01;
    const zUp = (p: number[]) => [p[0]! * s, -p[2]! * s, p[1]! * s] as [number, number, number];
    const rest: number[][] = [];
    for (const [, p, off] of JOINTS) rest.push(p < 0 ? off : off.map((v, c) => v + rest[p]![c]!));
    const rig: RigJson = { joints: {}, bones: [], roll_deg: {}, limits_deg: {} };
    JOINTS.forEach(([name, p], j) => {
      rig.joints[name] = zUp(rest[j]!);
      const child = JOINTS.findIndex((k) => k[1] === j);
      const tail = child >= 0 ? JOINTS[child]![0] : `${name}_end`;
      if (child < 0) rig.joints[tail] = zUp(rest[j]!.map((v, c) => v + END[c]!));
      rig.bones.push([name, name, tail, p < 0 ? null : JOINTS[p]![0]]);
    });
    const model = rigModelFromRigJson(RigJson.parse(rig));
    const creature = CreatureJson.parse({
      name: 'bvh-test',
      noun: 'test',
      describe: 'a test skeleton',
      colour_code: 'none',
      limbs: 'two legs',
      prep: { length_m: 1, rotz_deg: 0, axis: 'y' },
      feet: ['LegL_end', 'LegR_end'],
    });
    const info = creatureInfo(model, creature);
    const r = clipMotion(model, info, await readMotionClip(file), { frames: FRAMES, fps: 1 / DT });
    expect(r.scale).toBeCloseTo(s, 12);
    expect(r.residual).toBeLessThan(1e-9);
    const k = model.keypoints.length;
    const hips = model.keypoints.findIndex((p) => p.name === 'Hips');
    for (let f = 0; f < FRAMES; f++) {
      const want = fk(f).map(zUp);
      model.keypoints.forEach((p, j) => {
        const i = JOINTS.findIndex((x) => x[0] === p.name);
        if (i < 0) return;
        for (let c = 0; c < 3; c++) {
          const got =
            (r.motion.joints[(f * k + j) * 3 + c] as number) -
            (r.motion.joints[(f * k + hips) * 3 + c] as number);
          expect(got).toBeCloseTo(want[i]![c]! - want[0]![c]!, 7);
        }
      });
    }
  });
});

import { existsSync } from 'node:fs';
import { copyFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeIO } from '@gltf-transform/core';
import { buildRig, prepMesh, runBlenderScript } from '@mocap/blender-bridge';
import { BlenderError } from '@mocap/blender-bridge/internal';
import { CreatureJson, creaturePaths, FileError, readJsonFile } from '@mocap/layout';
import { CREATURES, tempDirs } from '@mocap/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { barChain, writeSkinnedBar } from './helpers/skinned-glb.js';

const temp = tempDirs();

type V3 = [number, number, number];
const DUMP = fileURLToPath(new URL('./fixtures/dump_weights.py', import.meta.url));
const Dump = z.object({
  vertices: z.array(z.object({ co: z.array(z.number()), w: z.record(z.string(), z.number()) })),
  modifiers: z.array(z.string()),
});
type Dump = z.output<typeof Dump>;

const dumpWeights = (blend: string) => runBlenderScript(DUMP, { blend }, Dump);

async function creatureDir(name: string): Promise<string> {
  const dir = await temp.make(`mocap-${name}-`);
  for (const f of ['creature.json', 'model.glb'])
    await copyFile(path.join(CREATURES, name, f), path.join(dir, f));
  return dir;
}

/** What prep does to a point of Blender's import frame, computed here from the glb alone. */
interface Expected {
  toPrep: (p: V3) => V3;
  /** Bind-pose world position (node world matrix) per joint name, glTF frame. */
  joints: Map<string, V3>;
  /** Every vertex: prep-frame position and its skin weights by joint name. */
  vertices: { co: V3; w: Map<string, number> }[];
}

const fromGltf = (p: ArrayLike<number>): V3 => [p[0] as number, -(p[2] as number), p[1] as number];

async function expected(model: string, creature: CreatureJson): Promise<Expected> {
  const doc = await new NodeIO().read(model);
  const node = doc
    .getRoot()
    .listNodes()
    .find((n) => n.getSkin() && n.getMesh())!;
  const skin = node.getSkin()!;
  const names = skin.listJoints().map((j) => j.getName());
  const ibm = skin.getInverseBindMatrices()!.getArray()!;
  const joints = new Map<string, V3>();
  skin.listJoints().forEach((j, i) => {
    const w = j.getWorldMatrix();
    // This path holds only where the bind pose is the node pose: IBM x world = identity.
    for (let c = 0; c < 4; c++)
      for (let r = 0; r < 4; r++) {
        let v = 0;
        for (let k = 0; k < 4; k++) v += (ibm[i * 16 + k * 4 + r] as number) * (w[c * 4 + k] as number);
        expect(v).toBeCloseTo(r === c ? 1 : 0, 3);
      }
    joints.set(j.getName(), [w[12], w[13], w[14]]);
  });
  const raw: { co: V3; w: Map<string, number> }[] = [];
  for (const prim of node.getMesh()!.listPrimitives()) {
    const pos = prim.getAttribute('POSITION')!;
    const js = prim.getAttribute('JOINTS_0')!;
    const ws = prim.getAttribute('WEIGHTS_0')!;
    const [p, j, w] = [
      [0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ];
    for (let v = 0; v < pos.getCount(); v++) {
      pos.getElement(v, p);
      js.getElement(v, j);
      ws.getElement(v, w);
      const m = new Map<string, number>();
      for (let k = 0; k < 4; k++) if ((w[k] as number) > 0) m.set(names[j[k] as number]!, w[k] as number);
      raw.push({ co: fromGltf(p), w: m });
    }
  }
  const rot = (creature.prep.rotz_deg * Math.PI) / 180;
  const rz = (p: V3): V3 => [
    Math.cos(rot) * p[0] - Math.sin(rot) * p[1],
    Math.sin(rot) * p[0] + Math.cos(rot) * p[1],
    p[2],
  ];
  const lo = [0, 1, 2].map((a) => Math.min(...raw.map((v) => rz(v.co)[a]!)));
  const hi = [0, 1, 2].map((a) => Math.max(...raw.map((v) => rz(v.co)[a]!)));
  const axis = 'xyz'.indexOf(creature.prep.axis);
  const s = creature.prep.length_m / (hi[axis]! - lo[axis]!);
  const centre = [(lo[0]! + hi[0]!) / 2, (lo[1]! + hi[1]!) / 2, lo[2]!];
  const toPrep = (p: V3): V3 => {
    const q = rz(p);
    return [0, 1, 2].map((a) => (q[a]! - centre[a]!) * s) as V3;
  };
  return { toPrep, joints, vertices: raw.map((v) => ({ co: toPrep(v.co), w: v.w })) };
}

const dist = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Math.hypot(
    (a[0] as number) - (b[0] as number),
    (a[1] as number) - (b[1] as number),
    (a[2] as number) - (b[2] as number),
  );

describe('rig from a glTF skin (fox-rigged, real Blender)', () => {
  let dir: string;
  let exp: Expected;
  let dump: Dump;
  let info: Awaited<ReturnType<typeof buildRig>>['info'];
  beforeAll(async () => {
    dir = await creatureDir('fox-rigged');
    const creature = await readJsonFile('test', path.join(dir, 'creature.json'), CreatureJson);
    exp = await expected(path.join(dir, 'model.glb'), creature);
    await prepMesh({ creature: dir });
    info = (await buildRig({ creature: dir })).info;
    dump = await dumpWeights(creaturePaths(dir).riggedBlend);
  }, 300_000);

  it("puts every bone's head on its skin joint, carried through prep's transform", () => {
    expect(info.root).toBe('b_Hip_01');
    expect(info.bones).toHaveLength(22);
    for (const b of info.bones) {
      const want = exp.toPrep(fromGltf(exp.joints.get(b.name)!));
      expect(dist(b.head, want), b.name).toBeLessThan(1e-4);
    }
    expect(info.keypoints).toHaveLength(28);
  });

  it("keeps the skin's own weights on every vertex (no re-weighting)", () => {
    expect(info.weights).toBe('skin');
    expect(dump.modifiers).toEqual(['ARMATURE']);
    expect(dump.vertices.length).toBeGreaterThan(200);
    for (const v of dump.vertices) {
      let best = exp.vertices[0]!;
      for (const e of exp.vertices) if (dist(e.co, v.co) < dist(best.co, v.co)) best = e;
      expect(dist(best.co, v.co)).toBeLessThan(1e-4);
      const names = new Set([...Object.keys(v.w), ...best.w.keys()]);
      for (const n of names) expect(v.w[n] ?? 0, n).toBeCloseTo(best.w.get(n) ?? 0, 3);
    }
  });
});

describe('rig from a glTF skin: influences and refusals', () => {
  const creature = {
    name: 'bar',
    noun: 'bar',
    describe: 'a bar',
    colour_code: 'none',
    limbs: 'none',
    prep: { length_m: 1, axis: 'y' },
  };
  const rings = [-1, -0.6, -0.2, 0.2, 0.6, 1];

  it('keeps the four largest of six influences, renormalised, and says so; turns the skeleton with the mesh', async () => {
    const dir = await temp.make('mocap-bar-');
    // Turned a quarter about Z, so the bar's length lies along X.
    const turned = CreatureJson.parse({ ...creature, prep: { length_m: 1, rotz_deg: 90, axis: 'x' } });
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify(turned));
    const six: [number, number][] = [0.3, 0.25, 0.2, 0.12, 0.08, 0.05].map((w, j) => [j, w]);
    await writeSkinnedBar(path.join(dir, 'model.glb'), barChain(6, rings), rings, [
      [[0, 1]],
      [[1, 1]],
      six,
      [[3, 1]],
      [[4, 1]],
      [[5, 1]],
    ]);
    const exp = await expected(path.join(dir, 'model.glb'), turned);
    await prepMesh({ creature: dir });
    const { info } = await buildRig({ creature: dir });
    expect(info.weights).toBe('skin (4 vertices cut to their 4 largest influences)');
    for (const b of info.bones)
      expect(dist(b.head, exp.toPrep(fromGltf(exp.joints.get(b.name)!))), b.name).toBeLessThan(1e-5);
    expect(info.bones[5]!.head[0]).toBeCloseTo(0.5, 4);
    expect(info.bones.map((b) => b.limits_deg[0])).toEqual(info.bones.map(() => [-45, 45]));
    const { vertices } = await dumpWeights(creaturePaths(dir).riggedBlend);
    const cut = vertices.filter((v) => Object.keys(v.w).length > 1);
    expect(cut).toHaveLength(4);
    for (const v of cut) {
      expect(Object.keys(v.w).sort()).toEqual(['J0', 'J1', 'J2', 'J3']);
      expect(v.w.J0).toBeCloseTo(0.3 / 0.87, 4);
      expect(v.w.J3).toBeCloseTo(0.12 / 0.87, 4);
    }
  }, 300_000);

  it('gives a mesh hung on a joint node that joint, at weight 1, where it rests', async () => {
    const dir = await temp.make('mocap-bar-');
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify(creature));
    const chain = barChain(3, rings);
    await writeSkinnedBar(
      path.join(dir, 'model.glb'),
      chain,
      rings,
      [[[0, 1]], [[1, 1]], [[2, 1]], [[2, 1]], [[2, 1]], [[2, 1]]],
      {
        joint: 2,
        translation: [0, 0.5, 0],
      },
    );
    const exp = await expected(path.join(dir, 'model.glb'), CreatureJson.parse(creature));
    await prepMesh({ creature: dir });
    const { info } = await buildRig({ creature: dir });
    expect(info.bones.map((b) => b.name)).toEqual(['J0', 'J1', 'J2']);
    const { vertices } = await dumpWeights(creaturePaths(dir).riggedBlend);
    // The triangle's corners: joint J2's node (0, 0.1, -0.2) + (0, 0.5, 0) + its own vertices, glTF
    // frame; above the bar but inside its x and z extent, so prep's transform is the bar's alone.
    const corners: V3[] = [
      [0, 0.6, -0.2],
      [0.1, 0.6, -0.2],
      [0, 0.7, -0.2],
    ];
    for (const c of corners) {
      const at = exp.toPrep(fromGltf(c));
      const v = vertices.find((u) => dist(u.co, at) < 1e-4);
      expect(v, `corner ${c}`).toBeDefined();
      expect(v!.w).toEqual({ J2: 1 });
    }
  }, 300_000);

  it('refuses a static.blend prepped while rig.json was there (no skin kept), naming it', async () => {
    const dir = await creatureDir('fox-rigged');
    await copyFile(path.join(CREATURES, 'fox', 'rig.json'), path.join(dir, 'rig.json'));
    await prepMesh({ creature: dir });
    await rm(path.join(dir, 'rig.json'));
    const e = await buildRig({ creature: dir }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(BlenderError);
    const p = creaturePaths(dir);
    expect((e as Error).message).toContain(
      `${p.staticBlend} was prepped without its skin (no mocap_prep_matrix): run \`mocap prep\` again`,
    );
    expect(existsSync(p.rigInfo)).toBe(false);
  }, 300_000);

  it('refuses a glb with neither a skin nor rig.json, naming both files', async () => {
    const dir = await temp.make('mocap-noskin-');
    await writeFile(path.join(dir, 'creature.json'), JSON.stringify(creature));
    await copyFile(path.join(CREATURES, 'wolf', 'model.glb'), path.join(dir, 'model.glb'));
    const e = await buildRig({ creature: dir }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(FileError);
    const p = creaturePaths(dir);
    expect((e as Error).message).toBe(
      `rig: ${p.model} has no skin and ${p.rigJson} does not exist: write rig.json, or give a skinned glb.`,
    );
  });
});

import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { NodeIO } from '@gltf-transform/core';
import {
  type ApplyMotionOptions,
  applyMotion,
  buildRig,
  JointsJson,
  prepMesh,
  validateGltf,
} from '@mocap/blender-bridge';
import { BlenderError, readGltfJoints } from '@mocap/blender-bridge/internal';
import { atomicWriteJson, type Layout, type RigInfo, readJsonFile, resolveCreature } from '@mocap/layout';
import { copyCreature } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPng } from './helpers/checks.js';
import { randomMotion } from './helpers/creature.js';

let dir: string;
let info: RigInfo;
let layout: Layout;

beforeAll(async () => {
  dir = await copyCreature('wolf');
  await prepMesh({ creature: dir });
  info = (await buildRig({ creature: dir })).info;
  layout = (await resolveCreature({ creature: dir })).layout;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Writes a seeded motion of `frames` frames under runs/capture/<name>/motion.json. */
async function motionFile(name: string, frames: number): Promise<string> {
  const file = path.join(dir, 'runs', 'capture', name, 'motion.json');
  await atomicWriteJson(file, randomMotion(info, frames, 11));
  return file;
}

async function list(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true }).catch(() => [] as string[])).map(String).sort();
}

/** Runs apply and aborts it at the first progress event of `stage` from process 0; resolves to the error. */
async function abortAt(stage: string, opts: Omit<ApplyMotionOptions, 'creature'>): Promise<Error> {
  const ac = new AbortController();
  const seen: string[] = [];
  return applyMotion({
    ...opts,
    creature: dir,
    signal: ac.signal,
    onProgress: (p) => {
      seen.push(p.stage);
      if (p.stage === stage && p.process === 0) ac.abort();
    },
  }).then(
    () => {
      throw new Error(`expected the apply aborted at "${stage}" to fail (stages seen: ${seen.join(', ')})`);
    },
    (e: Error) => e,
  );
}

describe('apply: exports first, only the renders asked for', () => {
  it('without renders: joints.json, a Khronos-valid animation.glb, .bvh and .fbx, and no renders', async () => {
    const motion = await motionFile('exports', 5);
    const out = path.join(dir, 'runs', 'apply', 'exports');
    const r = await applyMotion({ creature: dir, motion, out });
    expect(r.renders).toBeNull();
    expect(r.views).toEqual([]);
    expect(await list(out)).toEqual(['animation.bvh', 'animation.fbx', 'animation.glb', 'joints.json']);
    const v = await validateGltf(r.glb!);
    expect(v.errors).toBe(0);
    const joints = await readJsonFile('test', r.joints, JointsJson);
    expect(joints.joints).toHaveLength(5);
    // The glTF skins and animates the mesh as Blender posed it (exported with the armature
    // modifier switched off, so the skin comes from the vertex groups): joints within 1 mm.
    const g = await readGltfJoints(r.glb!, info);
    expect(g.joints).toHaveLength(5);
    let worst = 0;
    g.joints.forEach((row, t) => {
      row.forEach((p, j) => {
        const q = joints.joints[t]![j]!;
        worst = Math.max(worst, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
      });
    });
    expect(worst).toBeLessThan(0.001);
    const doc = await new NodeIO().read(r.glb!);
    const skin = doc.getRoot().listSkins()[0];
    expect(skin?.listJoints()).toHaveLength(info.bones.length);
    const prim = doc.getRoot().listMeshes()[0]?.listPrimitives()[0];
    expect(prim?.getAttribute('JOINTS_0')).toBeTruthy();
    expect(prim?.getAttribute('WEIGHTS_0')).toBeTruthy();
    const bvh = await readFile(r.bvh!, 'utf8');
    expect(bvh.startsWith('HIERARCHY')).toBe(true);
    expect(bvh).toMatch(/Frames:\s+5/);
    const fbx = await readFile(r.fbx!);
    expect(fbx.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    // Skinned too: a skin deformer with one cluster a weighted bone.
    expect(fbx.includes('Skin')).toBe(true);
    expect(fbx.includes('Cluster')).toBe(true);
  });

  it('the showcase view alone: one 3/4 image a frame over the wall, no front or side renders', async () => {
    const motion = await motionFile('showcase', 4);
    const out = path.join(dir, 'runs', 'apply', 'showcase');
    // Another writer's temporary file in the folder (capture encodes showcase.mp4 there meanwhile)
    // is not apply's to clean.
    const foreign = path.join(out, '.showcase.tmp-1-feed.mp4');
    await mkdir(out, { recursive: true });
    await writeFile(foreign, 'encoding');
    // Each render is reported once it lies complete under its final name (capture streams them).
    const reported: string[] = [];
    const r = await applyMotion({
      creature: dir,
      motion,
      out,
      renders: 'all',
      views: ['showcase'],
      showcase: { width: 320, height: 240 },
      formats: { glb: true, bvh: false, fbx: false },
      onProgress: (p) => {
        if (p.stage !== 'render') return;
        const file = path.join(out, 'renders', `${String(p.frame).padStart(5, '0')}_${p.view}.png`);
        if (existsSync(file)) reported.push(path.basename(file));
      },
    });
    expect(reported).toEqual([0, 1, 2, 3].map((t) => `0000${t}_showcase.png`));
    expect(r.views).toEqual(['showcase']);
    expect(await list(r.renders!)).toEqual([0, 1, 2, 3].map((t) => `0000${t}_showcase.png`));
    expect(await readFile(foreign, 'utf8')).toBe('encoding');
    await rm(foreign);
    expect(await list(out)).toEqual([
      'animation.glb',
      'joints.json',
      'renders',
      ...(await list(r.renders!)).map((f) => `renders/${f}`),
    ]);
    const { wall } = layout.colours;
    for (let t = 0; t < 4; t++) {
      const img = await readPng(path.join(r.renders!, `0000${t}_showcase.png`));
      expect([img.width, img.height]).toEqual([320, 240]);
      expect(img.at(0, 0)).toEqual(wall);
      expect(img.at(319, 239)).toEqual(wall);
      let creature = 0;
      for (let y = 0; y < 240; y++) {
        for (let x = 0; x < 320; x++) {
          const [cr, cg, cb] = img.at(x, y);
          if (cr !== wall[0] || cg !== wall[1] || cb !== wall[2]) creature++;
        }
      }
      expect(creature / (320 * 240)).toBeGreaterThan(0.03);
    }
  });

  it('two processes share the frames: every view of every frame, the studio colours exact', async () => {
    const motion = await motionFile('split', 6);
    const out = path.join(dir, 'runs', 'apply', 'split');
    const stages: string[] = [];
    const r = await applyMotion({
      creature: dir,
      motion,
      out,
      renders: 'all',
      showcase: { width: 160, height: 120 },
      aa: 'OFF',
      formats: { glb: false, bvh: false, fbx: false },
      processes: 2,
      onProgress: (p) => {
        stages.push(p.stage);
        expect(p.done).toBeLessThanOrEqual(p.total);
      },
    });
    expect(r.views).toEqual(['front', 'side', 'showcase']);
    const want = [0, 1, 2, 3, 4, 5].flatMap((t) =>
      ['front', 'side', 'showcase'].map((v) => `0000${t}_${v}.png`),
    );
    expect(await list(r.renders!)).toEqual(want.sort());
    expect(stages.filter((s) => s === 'render')).toHaveLength(18);
    const fronts = [];
    for (const t of [0, 5]) {
      const front = await readPng(path.join(r.renders!, `0000${t}_front.png`));
      expect([front.width, front.height]).toEqual([layout.W_FRONT, layout.HEIGHT]);
      expect(front.at(0, 0)).toEqual(layout.colours.wall);
      expect(front.at(0, layout.HEIGHT - 1)).toEqual(layout.colours.floor);
      fronts.push(front);
    }
    // The renders show the posed (deformed) mesh: frames 0 and 5 differ in many pixels.
    let changed = 0;
    for (let y = 0; y < layout.HEIGHT; y++) {
      for (let x = 0; x < layout.W_FRONT; x++) {
        if (fronts[0]!.at(x, y).join() !== fronts[1]!.at(x, y).join()) changed++;
      }
    }
    expect(changed).toBeGreaterThan(500);
    expect((await readJsonFile('test', r.joints, JointsJson)).joints).toHaveLength(6);
  });
});

describe('apply: an abort leaves no half-written file', () => {
  it('aborted while keying: no output at all and no temporary files', async () => {
    const motion = await motionFile('abort-keys', 120);
    const out = path.join(dir, 'runs', 'apply', 'abort-keys');
    const e = await abortAt('frames', {
      motion,
      out,
      renders: 'all',
      views: ['showcase'],
      showcase: { width: 160, height: 120 },
    });
    expect(e).toBeInstanceOf(BlenderError);
    expect((e as BlenderError).cancelled).toBe(true);
    expect(await list(out)).toEqual(['renders']);
  });

  it('aborted while rendering: the exports are complete, no render is half-written', async () => {
    const motion = await motionFile('abort-renders', 40);
    const out = path.join(dir, 'runs', 'apply', 'abort-renders');
    const e = await abortAt('render', {
      motion,
      out,
      renders: 'all',
      views: ['front', 'side', 'showcase'],
      showcase: { width: 320, height: 240 },
      processes: 2,
    });
    expect((e as BlenderError).cancelled).toBe(true);
    const files = await list(out);
    expect(files.filter((f) => f.includes('.tmp-'))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(['animation.bvh', 'animation.fbx', 'animation.glb', 'joints.json']),
    );
    expect((await validateGltf(path.join(out, 'animation.glb'))).errors).toBe(0);
    // Renders land only once their run of frames is done, so none (or only whole images) remain.
    for (const f of files.filter((x) => x.endsWith('.png'))) {
      const img = await readPng(path.join(out, f));
      expect(img.width).toBeGreaterThan(0);
    }
    expect(files.filter((x) => x.endsWith('.png')).length).toBeLessThan(40 * 3);
  });
});

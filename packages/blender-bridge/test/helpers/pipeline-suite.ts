import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { JointsJson, validateGltf } from '@mocap/blender-bridge';
import { readGltfJoints } from '@mocap/blender-bridge/internal';
import {
  CreatureJson,
  DatasetMeta,
  RigInfo,
  RigJson,
  readJsonFile,
  worldToFront,
  worldToSide,
} from '@mocap/layout';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRef, readPng } from './checks.js';
import { fkParity } from './fk-parity.js';
import { type PipelineRun, runPipeline } from './pipeline.js';

/** The end-to-end suite of one bundled creature: prep -> rig -> ref -> dataset (8) -> apply. */
export function pipelineSuite(name: string, opts: { length: number; processes?: number }): () => PipelineRun {
  let run: PipelineRun;

  beforeAll(async () => {
    run = await runPipeline(name, { dataset: 8, frames: 6, renders: [0, 5], processes: opts.processes ?? 1 });
  }, 240_000);

  afterAll(async () => {
    if (run) await rm(run.dir, { recursive: true, force: true });
  });

  describe(`${name}: prep -> rig -> ref -> dataset -> apply in Blender`, () => {
    it('preps the model to its real size on the ground', async () => {
      expect(run.prep.dimensions[1]).toBeCloseTo(opts.length, 5);
      expect(run.prep.vertices).toBeGreaterThan(100);
      expect((await stat(run.prep.file)).size).toBeGreaterThan(0);
    });

    it('builds the rig: rig_info.json validates and matches rig.json', async () => {
      const rig = await readJsonFile('test', path.join(run.dir, 'rig.json'), RigJson);
      const info = await readJsonFile('test', run.rig.rigInfo, RigInfo);
      expect(info.bones.map((b) => b.name)).toEqual(rig.bones.map((b) => b[0]));
      expect(info.keypoints.map((k) => k.name)).toEqual(Object.keys(rig.joints));
      for (const b of info.bones) {
        const [, head, tail] = rig.bones.find((x) => x[0] === b.name)!;
        for (let i = 0; i < 3; i++) expect(b.head[i]).toBeCloseTo(rig.joints[head]![i]!, 5);
        for (let i = 0; i < 3; i++) expect(b.tail[i]).toBeCloseTo(rig.joints[tail]![i]!, 5);
      }
      expect(info.weights).toMatch(/heat|nearest/);
      for (const n of ['front_left', 'front_right', 'hind_left', 'hind_right']) {
        expect(run.rig.painted[n]).toBeGreaterThan(20);
      }
      expect(run.progress).toContain('build_rig.py:weights');
    });

    it('renders ref.png with the studio colours, the ground row and shared rows', async () => {
      await checkRef(run, opts.length);
    });

    it('renders 8 dataset samples whose metas match their projections', async () => {
      const ds = run.dataset!;
      expect(ds.rendered).toBe(8);
      expect(ds.metas).toHaveLength(8);
      const rig = await readJsonFile('test', path.join(run.dir, 'rig.json'), RigJson);
      const inner = new Set(rig.bones.map((b) => b[1]));
      let onCreatureAll = 0;
      let hiddenLeft = 0;
      let hiddenRight = 0;
      let jointsSeen = 0;
      for (const file of ds.metas) {
        const meta = await readJsonFile('test', file, DatasetMeta);
        meta.joints_m.forEach((p, j) => {
          const f = worldToFront(p, run.ref.layout);
          const s = worldToSide(p, run.ref.layout);
          expect(meta.front_uv[j]![0]).toBeCloseTo(f[0], 6);
          expect(meta.side_uv[j]![0]).toBeCloseTo(s[0], 6);
          expect(meta.front_uv[j]![1]).toBe(meta.side_uv[j]![1]);
        });
        const front = await readPng(path.join(ds.dir, meta.images.front));
        const side = await readPng(path.join(ds.dir, meta.images.side));
        const L = run.ref.layout;
        expect([front.width, front.height]).toEqual([L.W_FRONT, L.HEIGHT]);
        expect([side.width, side.height]).toEqual([L.W_SIDE, L.HEIGHT]);
        // The studio lands exactly without anti-aliasing too (floor planes, not the compositor).
        for (const img of [front, side]) {
          expect(img.at(0, 0)).toEqual(L.colours.wall);
          expect(img.at(0, Math.ceil(L.GROUND_V) - 1)).toEqual(L.colours.wall);
          expect(img.at(0, Math.ceil(L.GROUND_V))).toEqual(L.colours.floor);
          expect(img.at(img.width - 1, L.HEIGHT - 1)).toEqual(L.colours.floor);
        }
        // The true joints inside the creature (every joint that starts a bone; tips such as the
        // nose, toes and tail tip may sit on or just past the surface) show it, not the studio.
        const isStudio = (c: number[]) =>
          [L.colours.wall, L.colours.floor].some((w) => w[0] === c[0] && w[1] === c[1] && w[2] === c[2]);
        let onCreature = 0;
        meta.front_uv.forEach(([u, v], j) => {
          if (!inner.has(meta.names[j]!)) return;
          const [su, sv] = meta.side_uv[j]!;
          const f = front.at(Math.floor(u), Math.floor(v));
          const s = side.at(Math.floor(su - L.W_FRONT), Math.floor(sv));
          if (!isStudio(f) && !isStudio(s)) onCreature++;
        });
        onCreatureAll += onCreature;
        // Visibility: the side camera sees the right flank, so left joints hide more often.
        expect(meta.visible?.side).toHaveLength(meta.names.length);
        expect(meta.visible?.front).toHaveLength(meta.names.length);
        meta.names.forEach((n, j) => {
          if (meta.visible!.side[j]) return;
          if (n.endsWith('.L')) hiddenLeft++;
          if (n.endsWith('.R')) hiddenRight++;
        });
        jointsSeen += meta.names.filter((n) => inner.has(n)).length;
      }
      expect(jointsSeen).toBeGreaterThan(8 * 10);
      expect(onCreatureAll / jointsSeen).toBeGreaterThan(0.97);
      expect(hiddenLeft).toBeGreaterThan(hiddenRight);
      expect(hiddenLeft).toBeGreaterThan(4);
    });

    it('draws gait-like dataset poses: inside 0.9 of every limit, the first two legs in opposite phase', async () => {
      const info = await readJsonFile('test', run.rig.rigInfo, RigInfo);
      const creature = await readJsonFile('test', path.join(run.dir, 'creature.json'), CreatureJson);
      const metas = await Promise.all(run.dataset!.metas.map((f) => readJsonFile('test', f, DatasetMeta)));
      const deg = 180 / Math.PI;
      for (const meta of metas) {
        for (const b of info.bones) {
          if (b.name === info.root) continue;
          b.limits_deg.forEach(([lo, hi], a) => {
            const c = (lo + hi) / 2;
            const x = meta.pose!.euler[b.name]![a]! * deg;
            expect(Math.abs(x - c)).toBeLessThanOrEqual(0.9 * ((hi - lo) / 2) + 1e-6);
          });
        }
      }
      // Legs take gait phases 0, 1/2, 1/4, 3/4 in the order their bones come in the rig (the
      // solver's synthetic motion does the same), so the first two legs' top bones swing about their
      // flexion (X) axes half a cycle apart: their offsets from mid-range mostly have opposite signs.
      const legs = creature.paint
        .map((g) => info.bones.findIndex((b) => g.bones.includes(b.name)))
        .filter((i) => i >= 0)
        .sort((a, b) => a - b);
      const [b0, b1] = [info.bones[legs[0]!]!, info.bones[legs[1]!]!];
      const mid = (b: typeof b0) => (b.limits_deg[0]![0] + b.limits_deg[0]![1]) / 2;
      let dot = 0;
      let norm = 0;
      for (const meta of metas) {
        const x0 = meta.pose!.euler[b0.name]![0]! * deg - mid(b0);
        const x1 = meta.pose!.euler[b1.name]![0]! * deg - mid(b1);
        dot += x0 * x1;
        norm += Math.abs(x0 * x1);
      }
      expect(dot / norm).toBeLessThan(-0.2);
    });

    it("FK parity: the solver's FK from rig_info.json matches Blender's joints.json within 0.1 mm", async () => {
      const info = await readJsonFile('test', run.rig.rigInfo, RigInfo);
      const joints = await readJsonFile('test', run.apply.joints, JointsJson);
      const { worst, compared } = fkParity(info, run.motion, joints);
      expect(compared).toBe(6 * info.keypoints.length);
      expect(worst).toBeLessThan(1e-4);
    });

    it('applies a motion: joints.json, renders, a valid glTF that reads back within 1 mm, BVH, FBX', async () => {
      const a = run.apply;
      const joints = await readJsonFile('test', a.joints, JointsJson);
      expect(joints.joints).toHaveLength(6);
      for (const t of [0, 5]) {
        for (const v of ['front', 'side']) {
          const img = await readPng(path.join(a.renders!, `0000${t}_${v}.png`));
          expect(img.width).toBe(v === 'front' ? run.ref.layout.W_FRONT : run.ref.layout.W_SIDE);
        }
        // The 3/4 showcase view: the creature over the wall.
        const show = await readPng(path.join(a.renders!, `0000${t}_showcase.png`));
        expect([show.width, show.height]).toEqual([320, 240]);
        expect(show.at(0, 0)).toEqual(run.ref.layout.colours.wall);
        let creature = 0;
        for (let y = 0; y < 240; y++) {
          for (let x = 0; x < 320; x++) {
            const [r, g, b] = show.at(x, y);
            const [wr, wg, wb] = run.ref.layout.colours.wall;
            if (r !== wr || g !== wg || b !== wb) creature++;
          }
        }
        expect(creature / (320 * 240)).toBeGreaterThan(0.03);
      }
      await expect(stat(path.join(a.renders!, '00001_showcase.png'))).rejects.toThrow();
      expect((await validateGltf(a.glb!)).errors).toBe(0);
      const g = await readGltfJoints(a.glb!, run.rig.info);
      expect(g.joints).toHaveLength(6);
      let worst = 0;
      g.joints.forEach((row, t) => {
        row.forEach((p, j) => {
          const q = joints.joints[t]![j]!;
          worst = Math.max(worst, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
        });
      });
      expect(worst).toBeLessThan(0.001);
      const bvh = await readFile(a.bvh!, 'utf8');
      expect(bvh.startsWith('HIERARCHY')).toBe(true);
      expect(bvh).toMatch(/Frames:\s+6/);
      const fbx = await readFile(a.fbx!);
      expect(fbx.subarray(0, 18).toString('latin1')).toBe('Kaydara FBX Binary');
    });
  });
  return () => run;
}

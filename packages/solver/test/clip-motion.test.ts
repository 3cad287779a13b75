// Uses the Khronos glTF sample model Fox (creatures/fox/model.glb, a copy of ../shared/fixtures/fox/Fox.glb). Credits: CC0 low
// poly fox by PixelMannen; CC-BY 4.0 rigging and animation by @tomkranis on Sketchfab; glTF conversion by @AsoboStudio and @scurest.
import { NodeIO } from '@gltf-transform/core';
import type { RigJson } from '@mocap/layout';
import { clipMotion, creatureInfo, rigModelFromRigJson, type SkeletonClip } from '@mocap/solver';
import { readGltfClip } from '@mocap/solver/internal';
import { beforeAll, describe, expect, it } from 'vitest';
import { FOX, type FoxPrep, foxSkinRig, toRig } from './helpers/fox-skin-rig.js';

let rig: RigJson;
let creature: Awaited<ReturnType<typeof foxSkinRig>>['creature'];
let prep: FoxPrep;
let walk: SkeletonClip;

beforeAll(async () => {
  ({ rig, creature, prep } = await foxSkinRig());
  walk = await readGltfClip(FOX, 'Walk');
});

const setup = (r: RigJson = rig) => {
  const model = rigModelFromRigJson(r);
  return { model, info: creatureInfo(model, creature) };
};

/** Keypoint `j` of frame `f` minus the root bone's head (b_Hip_01), metres. */
function relative(joints: Float64Array, k: number, f: number, j: number, hip: number): number[] {
  return [0, 1, 2].map(
    (c) => (joints[(f * k + j) * 3 + c] as number) - (joints[(f * k + hip) * 3 + c] as number),
  );
}

describe('clipMotion on the Fox Walk', () => {
  it('poses each rig bone head where the glTF puts its joint at the key times (24 fps keys)', async () => {
    const { model, info } = setup();
    const { motion, scale, residual, loop } = clipMotion(model, info, walk, { frames: 17, fps: 24 });
    expect(scale).toBeCloseTo(prep.scale, 9);
    expect(residual).toBeLessThan(1e-6);
    expect(loop).toBe('cycle');
    // The same key values set on the nodes and composed by glTF-Transform: an independent FK.
    const doc = await new NodeIO().read(FOX);
    const anim = doc
      .getRoot()
      .listAnimations()
      .find((a) => a.getName() === 'Walk')!;
    const nodeByName = new Map(
      doc
        .getRoot()
        .listNodes()
        .map((n) => [n.getName(), n]),
    );
    const k = model.keypoints.length;
    const hip = model.keypoints.findIndex((p) => p.name === 'b_Hip_01');
    const noOffset: FoxPrep = { scale: prep.scale, offset: [0, 0, 0] };
    let worst = 0;
    for (const f of [0, 5, 11, 16]) {
      for (const ch of anim.listChannels()) {
        const out = ch.getSampler()!.getOutput()!;
        const v: number[] = out.getElement(f, []);
        const node = ch.getTargetNode()!;
        if (ch.getTargetPath() === 'rotation') node.setRotation(v as [number, number, number, number]);
        if (ch.getTargetPath() === 'translation') node.setTranslation(v as [number, number, number]);
      }
      const at = (name: string) => {
        const m = nodeByName.get(name)!.getWorldMatrix();
        return toRig([m[12], m[13], m[14]], noOffset);
      };
      const hipAt = at('b_Hip_01');
      model.keypoints.forEach((p, j) => {
        if (p.end !== 'head') return;
        const want = at(p.name).map((v, c) => v - hipAt[c]!);
        const got = relative(motion.joints, k, f, j, hip);
        for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(got[c]! - want[c]!));
      });
    }
    expect(worst).toBeLessThan(1e-5);
  });

  it('repeats a cycle seamlessly: frame f + 17 is frame f at 24 fps, and the wrap is no jump', () => {
    const { model, info } = setup();
    const { motion } = clipMotion(model, info, walk, { frames: 40, fps: 24 });
    const n = model.bones.length * 3;
    for (let f = 0; f + 17 < 40; f++) {
      for (let i = 3; i < n; i++)
        expect(motion.euler[(f + 17) * n + i]).toBeCloseTo(motion.euler[f * n + i] as number, 5);
      for (let c = 0; c < 3; c++)
        expect(motion.trans[(f + 17) * 3 + c]).toBeCloseTo(motion.trans[f * 3 + c] as number, 5);
    }
    // Joint steps across the seam (16 -> 17) are of the size of the steps inside the cycle.
    const k = model.keypoints.length;
    const step = (f: number) => {
      let s = 0;
      for (let j = 0; j < k * 3; j++)
        s = Math.max(
          s,
          Math.abs((motion.joints[(f + 1) * k * 3 + j] as number) - (motion.joints[f * k * 3 + j] as number)),
        );
      return s;
    };
    const inside = Math.max(...Array.from({ length: 15 }, (_, f) => step(f)));
    expect(step(16)).toBeLessThanOrEqual(inside * 1.01);
  });

  it('resamples to the exam fps: at 48 fps every other frame is the 24 fps frame', () => {
    const { model, info } = setup();
    const a = clipMotion(model, info, walk, { frames: 17, fps: 24 }).motion;
    const b = clipMotion(model, info, walk, { frames: 34, fps: 48 }).motion;
    expect(b.fps).toBe(48);
    const n = model.bones.length * 3;
    const k = model.keypoints.length;
    const hip = model.keypoints.findIndex((p) => p.name === 'b_Hip_01');
    for (let f = 0; f < 17; f++) {
      for (let i = 3; i < n; i++) expect(b.euler[2 * f * n + i]).toBeCloseTo(a.euler[f * n + i] as number, 9);
      for (let c = 0; c < 4; c++)
        expect(b.rootQuat[8 * f + c]).toBeCloseTo(a.rootQuat[4 * f + c] as number, 9);
      for (let j = 0; j < k; j++) {
        const pa = relative(a.joints, k, f, j, hip);
        const pb = relative(b.joints, k, 2 * f, j, hip);
        for (let c = 0; c < 3; c++) expect(pb[c]).toBeCloseTo(pa[c]!, 9);
      }
    }
    // The frames between lie between their neighbours' poses (the keys are interpolated, not held).
    const mid = b.euler[3 * n + 3 * 7] as number;
    const lo = Math.min(b.euler[2 * n + 3 * 7] as number, b.euler[4 * n + 3 * 7] as number);
    const hi = Math.max(b.euler[2 * n + 3 * 7] as number, b.euler[4 * n + 3 * 7] as number);
    expect(mid).toBeGreaterThanOrEqual(lo - 1e-9);
    expect(mid).toBeLessThanOrEqual(hi + 1e-9);
  });

  it('grounds and centres the motion: the lowest foot on z = 0 each frame, the root about x = y = 0', () => {
    const { model, info } = setup();
    const { motion } = clipMotion(model, info, walk, { frames: 30, fps: 30 });
    const k = model.keypoints.length;
    for (let f = 0; f < 30; f++) {
      const low = Math.min(...info.feet.map((j) => motion.joints[(f * k + j) * 3 + 2] as number));
      expect(low).toBeCloseTo(0, 9);
    }
    for (let c = 0; c < 2; c++) {
      const mean =
        Array.from({ length: 30 }, (_, f) => motion.trans[f * 3 + c] as number).reduce((s, v) => s + v) / 30;
      expect(mean).toBeCloseTo(0, 9);
    }
  });

  it('plays a clip that is not a cycle forward then back, without a jump', () => {
    const { model, info } = setup();
    const half: SkeletonClip = { ...walk, end: walk.end / 2 };
    const r = clipMotion(model, info, half, { frames: 30, fps: 24 });
    expect(r.loop).toBe('pingpong');
    const n = model.bones.length * 3;
    // 8.5 frames each way: the pose at u and at 2 d - u are the same (frames 4 and 13).
    for (let i = 3; i < n; i++)
      expect(r.motion.euler[13 * n + i]).toBeCloseTo(r.motion.euler[4 * n + i] as number, 6);
  });
});

describe('clipMotion errors', () => {
  it('names the creature bones the motion lacks', () => {
    const renamed = structuredClone(rig);
    renamed.bones = renamed.bones.map((b) =>
      b[0] === 'b_Head_05'
        ? ['head', b[1], b[2], b[3]]
        : b[0] === 'b_Tail03_014'
          ? ['tailtip', b[1], b[2], b[3]]
          : b,
    );
    const { model, info } = setup(renamed);
    expect(() => clipMotion(model, info, walk, { frames: 10 })).toThrow(
      /model\.glb#Walk: the creature's bones "head", "tailtip" are not joints of the motion \(2 of 22 bones; the motion's joints: .*b_Head_05/,
    );
  });

  it('refuses a skeleton of another shape, naming the bones furthest off', () => {
    const moved = structuredClone(rig);
    const p = moved.joints.b_LeftFoot01_017!;
    moved.joints.b_LeftFoot01_017 = [p[0] + 0.3, p[1], p[2]];
    const { model, info } = setup(moved);
    expect(() => clipMotion(model, info, walk, { frames: 10 })).toThrow(
      /is not the creature's: .*furthest: "b_LeftFoot01_017"/,
    );
  });
});

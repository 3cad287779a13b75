import path from 'node:path';
import { readSkinSkeleton, skinKeypoints } from '@mocap/blender-bridge/internal';
import { FileError } from '@mocap/layout';
import { CREATURES, tempDirs } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { barChain, type TestJoint, writeSkinnedBar } from './helpers/skinned-glb.js';

const temp = tempDirs();

const RINGS = [-1, -0.6, -0.2, 0.2, 0.6, 1];
const tmp = () => temp.make('mocap-skin-');

describe('readSkinSkeleton', () => {
  it("reads the Fox's 22 body joints: weightless top joints folded, parents, bind heads", async () => {
    const s = (await readSkinSkeleton('rig', path.join(CREATURES, 'fox-rigged', 'model.glb')))!;
    expect(s.dropped).toEqual(['_rootJoint', 'b_Root_00']);
    expect(s.joints).toHaveLength(22);
    expect(s.joints[0]).toMatchObject({ name: 'b_Hip_01', parent: null });
    expect(s.joints.find((j) => j.name === 'b_LeftUpperArm_09')?.parent).toBe('b_Spine02_03');
    expect(s.bindDiffers).toEqual([]);
    expect(s.maxInfluences).toBeLessThanOrEqual(4);
    // The hip's bind head (glTF 0, 42.94, -26.75) in Blender's import frame.
    const hip = s.joints[0]!.head;
    expect(hip[0]).toBeCloseTo(0, 2);
    expect(hip[1]).toBeCloseTo(26.748, 2);
    expect(hip[2]).toBeCloseTo(42.938, 2);
    const kp = skinKeypoints(s);
    expect(kp).toHaveLength(28);
    expect(kp).toContainEqual({ name: 'b_Head_05_end', bone: 'b_Head_05', end: 'tail' });
  });

  it('takes the rest pose from the inverse bind matrices and skips helper nodes', async () => {
    const file = path.join(await tmp(), 'helper.glb');
    const joints: TestJoint[] = [
      { name: 'J0', parent: null, translation: [0, 0.1, -1], bind: [0, 0.1, -1] },
      { name: 'H', parent: 0, translation: [0, 0, 0.5], bind: [0, 0, 0], helper: true },
      // Its node sits at (0, 0.1, 0); its bind pose was elsewhere.
      { name: 'J1', parent: 1, translation: [0, 0, 0.5], bind: [0.2, 0.3, 0.4] },
    ];
    await writeSkinnedBar(file, joints, RINGS, [[[0, 1]], [[0, 1]], [[0, 1]], [[1, 1]], [[1, 1]], [[1, 1]]]);
    const s = (await readSkinSkeleton('rig', file))!;
    expect(s.joints.map((j) => [j.name, j.parent])).toEqual([
      ['J0', null],
      ['J1', 'J0'],
    ]);
    expect(s.bindDiffers).toEqual(['J1']);
    const h = s.joints[1]!.head;
    expect([h[0], h[1], h[2]].map((v) => Number(v.toFixed(6)))).toEqual([0.2, -0.4, 0.3]);
  });

  it('counts influences across JOINTS_0 and JOINTS_1', async () => {
    const file = path.join(await tmp(), 'six.glb');
    const six: [number, number][] = [0, 1, 2, 3, 4, 5].map((j) => [j, 1 / 6]);
    await writeSkinnedBar(file, barChain(6, RINGS), RINGS, [
      [[0, 1]],
      [[1, 1]],
      six,
      [[3, 1]],
      [[4, 1]],
      [[5, 1]],
    ]);
    expect((await readSkinSkeleton('rig', file))!.maxInfluences).toBe(6);
  });

  it('is null for a glb whose meshes have no skin', async () => {
    expect(await readSkinSkeleton('rig', path.join(CREATURES, 'wolf', 'model.glb'))).toBeNull();
  });

  it('refuses a skin with no joints, naming the file', async () => {
    const file = path.join(await tmp(), 'empty.glb');
    await writeSkinnedBar(file, [], RINGS, []);
    const e = await readSkinSkeleton('rig', file).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(FileError);
    expect((e as Error).message).toBe(`rig: ${file}: skin "barSkin" has no joints.`);
  });

  it('refuses a skeleton with two roots', async () => {
    const file = path.join(await tmp(), 'roots.glb');
    const joints: TestJoint[] = [
      { name: 'A', parent: null, translation: [0, 0.1, -1], bind: [0, 0.1, -1] },
      { name: 'B', parent: null, translation: [0, 0.1, 1], bind: [0, 0.1, 1] },
    ];
    await writeSkinnedBar(file, joints, RINGS, [[[0, 1]], [[0, 1]], [[0, 1]], [[1, 1]], [[1, 1]], [[1, 1]]]);
    await expect(readSkinSkeleton('rig', file)).rejects.toThrow(
      /has 2 root joints \(A, B\); a rig needs one\./,
    );
  });
});

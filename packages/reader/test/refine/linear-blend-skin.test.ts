// Uses the Khronos glTF sample model Fox (creatures/fox/model.glb, a copy of ../shared/fixtures/fox/Fox.glb). Credits: CC0 low
// poly fox by PixelMannen (https://opengameart.org/content/fox-and-shiba); CC-BY 4.0 rigging and
// animation by @tomkranis on Sketchfab (https://sketchfab.com/models/371dea88d7e04a76af5763f2a36866bc);
// glTF conversion by @AsoboStudio and @scurest.
import { readSkinnedMesh } from '@mocap/reader';
import {
  jointWorldMatrices,
  linearBlendSkin,
  restJointPose,
  sampleSkinAnimation,
  skinningMatrices,
} from '@mocap/reader/internal';
import { maxAbsDiff } from '@mocap/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { FOX } from './fox-fixture.js';
import { blenderPosedVertices } from './run-blender.js';

function skinAt(mesh: Awaited<ReturnType<typeof readSkinnedMesh>>, anim: string | null, time: number) {
  const pose = restJointPose(mesh);
  if (anim) sampleSkinAnimation(pose, mesh.animations.find((a) => a.name === anim)!, time);
  const world = new Float64Array(mesh.jointNames.length * 16);
  const skin = new Float64Array(mesh.jointNames.length * 16);
  jointWorldMatrices(world, mesh, pose, mesh.toWorld);
  skinningMatrices(skin, mesh, world);
  return linearBlendSkin(new Float64Array(mesh.vertexCount * 3), mesh, skin);
}

describe('linearBlendSkin against Blender', () => {
  let blender: ReturnType<typeof blenderPosedVertices>;
  let mesh: Awaited<ReturnType<typeof readSkinnedMesh>>;
  beforeAll(async () => {
    mesh = await readSkinnedMesh(FOX);
    blender = blenderPosedVertices(FOX, 'Walk', 5);
  }, 120_000);

  it('reads the Fox: 1,728 vertices, 24 joints, three animations', () => {
    expect(mesh.vertexCount).toBe(1728);
    expect(mesh.jointNames.length).toBe(24);
    expect(mesh.animations.map((a) => a.name)).toEqual(['Survey', 'Walk', 'Run']);
    expect(mesh.parent[mesh.jointNames.indexOf('b_Hip_01')]).toBe(mesh.jointNames.indexOf('b_Root_00'));
  });

  // Blender's importer converts glTF's Y-up to Z-up, (x, y, z) -> (x, -z, y): mesh.toWorld does the
  // same (unit scale 1, the Fox's file units). The Fox's one primitive is not indexed, and the
  // importer keeps the primitive's vertex order (it merges nothing by default), so Blender's
  // vertex i is glTF vertex i: the rest-pose check below proves that mapping before the posed
  // check relies on it. Blender's rest pose is the node (TRS) rest the importer bakes the mesh to.
  it('rest pose: Blender keeps the glTF vertex order (the mapping used below)', () => {
    expect(blender.rest.length).toBe(mesh.vertexCount * 3);
    expect(maxAbsDiff(skinAt(mesh, null, 0), blender.rest)).toBeLessThan(1e-4);
  });

  it('Walk at its 6th key: every vertex within 1e-4 units of Blender', () => {
    const time = (blender.frame - blender.first_frame) / blender.fps;
    const ours = skinAt(mesh, 'Walk', time);
    const diff = maxAbsDiff(ours, blender.posed);
    expect(diff).toBeLessThan(1e-4);
    // The pose really moves the mesh: far from the rest pose.
    expect(maxAbsDiff(ours, blender.rest)).toBeGreaterThan(1);
  });
});

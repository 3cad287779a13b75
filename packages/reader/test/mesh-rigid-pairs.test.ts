import { rigKeypoints } from '@mocap/reader';
import { meshRigidPairs } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { FOX_LAYOUT, readFox } from './refine/fox-fixture.js';

describe('meshRigidPairs', () => {
  it('pairs the heads of a bone with its parent and its siblings on the Fox, at their rest distance', async () => {
    const mesh = await readFox();
    const specs = mesh.jointNames.map((bone) => ({ name: bone, bone, end: 'head' as const, length: 0 }));
    const kp = rigKeypoints(mesh, specs);
    const pairs = meshRigidPairs(mesh, kp, FOX_LAYOUT, 5);
    expect(pairs.length).toBeGreaterThan(5);
    for (const { a, b, px } of pairs) {
      const [ja, jb] = [kp.joints[a]!, kp.joints[b]!];
      const related = mesh.parent[ja] === jb || mesh.parent[jb] === ja || mesh.parent[ja] === mesh.parent[jb];
      expect(related).toBe(true);
      expect(px).toBeGreaterThanOrEqual(5);
    }
    // Heads of a grandchild and its grandparent are not held apart by one part.
    const grand = pairs.filter(({ a, b }) => mesh.parent[mesh.parent[kp.joints[a]!]!] === kp.joints[b]);
    expect(grand).toHaveLength(0);
  });
});

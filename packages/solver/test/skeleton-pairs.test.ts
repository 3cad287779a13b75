import { skeletonPairs } from '@mocap/solver';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

describe('skeletonPairs', () => {
  it("joins every wolf keypoint but the root's head to the nearest keypoint up its bone chain, once", () => {
    const { model, rig } = loadCreature('wolf');
    const pairs = skeletonPairs(model);
    const names = model.keypoints.map((k) => k.name);
    expect(pairs).toHaveLength(names.length - 1);
    expect(new Set(pairs.map(([, b]) => b)).size).toBe(pairs.length);
    for (const [a, b] of pairs) {
      expect(names).toContain(a);
      expect(names).toContain(b);
    }
    // A bone's tail joins its own head when both are keypoints: every rig.json bone is such a pair.
    const joined = new Set(pairs.map(([a, b]) => `${a}>${b}`));
    for (const [, head, tail] of rig.bones) expect(joined.has(`${head}>${tail}`)).toBe(true);
  });
});

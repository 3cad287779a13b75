import { rigidPairs } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

// A spine bone (joint 0) with two children (joints 1, 2); keypoints: 0 spine head, 1 spine tail,
// 2 child-1 head, 3 child-1 tail, 4 child-2 head, 5 child-2 tail.
const input = {
  rides: [0, 0, 1, 1, 2, 2],
  head: [true, false, true, false, true, false],
  parent: [-1, 0, 0],
  rest: [0, 0, 0, 0, 1, 0, 0.2, 0.5, 0, 0.2, 0.5, -0.6, -0.2, 0.5, 0, -0.2, 0.5, -0.6],
  metresPerPx: 0.01,
};

describe('rigidPairs', () => {
  it('pairs keypoints of one bone, and a head with its parent bone and its siblings heads', () => {
    const pairs = rigidPairs(input, 0);
    const key = pairs.map((p) => `${p.a}-${p.b}`);
    // spine head-tail, spine with both child heads, the child heads together, each child head-tail
    expect(key.sort()).toEqual(['0-1', '0-2', '0-4', '1-2', '1-4', '2-3', '2-4', '4-5'].sort());
    // Tails of different children move apart with the pose: no pair.
    expect(key).not.toContain('3-5');
    expect(pairs.find((p) => p.a === 0 && p.b === 1)!.px).toBeCloseTo(100, 9);
  });

  it('leaves out pairs closer than minPx', () => {
    const pairs = rigidPairs(input, 50);
    expect(pairs.every((p) => p.px >= 50)).toBe(true);
    expect(pairs.map((p) => `${p.a}-${p.b}`)).toContain('0-1');
    expect(pairs.map((p) => `${p.a}-${p.b}`)).not.toContain('2-4');
  });
});

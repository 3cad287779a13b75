import { frameBlockLayout } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';

describe('frameBlockLayout', () => {
  // A root with two chains: 1 -> 2 and 3.
  const parent = Int32Array.from([-1, 0, 1, 0]);
  const n = 6 + 3 * 3;

  it('orders each bone after its descendants, the root last, three rows a bone', () => {
    const lay = frameBlockLayout(parent, 4, n);
    expect(Array.from(lay.perm)).toEqual([9, 10, 11, 6, 7, 8, 12, 13, 14, 3, 4, 5, 0, 1, 2]);
    for (let i = 0; i < n; i++) expect(lay.pos[lay.perm[i] as number]).toBe(i);
    // Bone 1's rows start at its child's (bone 2's) first position; bone 3 has no descendants.
    expect(Array.from(lay.lo)).toEqual([0, 0, 0, 0, 0, 0, 6, 6, 6, 0, 0, 0, 0, 0, 0]);
    // Row i keeps positions lo[i]..i: 21 (the first chain) + 6 (bone 1 over bone 2) + 33 + 42.
    expect(lay.nnz).toBe(102);
  });

  it('builds one layout per rig and variable count (a second object would discard compiled code)', () => {
    const a = frameBlockLayout(parent, 4, n);
    expect(frameBlockLayout(parent, 4, n)).toBe(a);
    expect(frameBlockLayout(Int32Array.from(parent), 4, n)).not.toBe(a);
    expect(frameBlockLayout(Int32Array.from(parent), 4, n).perm).toEqual(a.perm);
  });
});

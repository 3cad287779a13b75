import { expectQuat, expectVec, maxAbsDiff } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';

describe('float matchers', () => {
  it('maxAbsDiff is the largest element-wise gap, NaN when a value is NaN', () => {
    expect(maxAbsDiff([1, 2, 3], [1.5, 2, 2])).toBe(1);
    expect(maxAbsDiff([0, Number.NaN], [0, 0])).toBeNaN();
    expect(() => maxAbsDiff([1, 2], [1])).toThrow(/length/);
  });

  it('expectVec passes within the tolerance and fails beyond it, naming the gap', () => {
    expectVec([1, 2], [1 + 1e-13, 2]);
    expect(() => expectVec([1, 2], [1.1, 2], 0.05)).toThrow(/max \|diff\| 0\.1\d* > 0\.05/);
    expect(() => expectVec([Number.NaN], [0], 1)).toThrow(/max \|diff\| NaN/);
  });

  it('expectQuat treats q and -q as the same rotation, and no other sign flip', () => {
    expectQuat([0, 0, 0.6, -0.8], [0, 0, -0.6, 0.8]);
    expect(() => expectQuat([0, 0, 0.6, 0.8], [0, 0, -0.6, 0.8])).toThrow(/max \|diff\|/);
  });
});

import { viewConfidences } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

describe('viewConfidences', () => {
  it('floors a view that hides the keypoint at min while the other shows it', () => {
    expect(viewConfidences(0.05, 0.8, 0.1, 0)).toEqual([0.1, 0.8]);
    expect(viewConfidences(0.7, 0, 0.1, 0)).toEqual([0.7, 0.1]);
    expect(viewConfidences(1, 1, 0.1, 0)).toEqual([1, 1]);
  });

  it('gives a keypoint neither view shows the unseen confidence in both', () => {
    expect(viewConfidences(0.05, 0.02, 0.1, 0)).toEqual([0, 0]);
    expect(viewConfidences(0, 0, 0.1, 0.05)).toEqual([0.05, 0.05]);
    // a view at exactly min shows it
    expect(viewConfidences(0.1, 0, 0.1, 0)).toEqual([0.1, 0.1]);
  });
});

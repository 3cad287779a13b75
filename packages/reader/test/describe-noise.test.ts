import { describeNoise } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

describe('describeNoise', () => {
  it('says how many frames were blurred, or that the wall is clean', () => {
    expect(describeNoise({ max: 13.27, denoised: 118 }, 120)).toBe(
      'noise: up to 13.3 levels on the wall; 118 of 120 frames box-blurred before labelling',
    );
    expect(describeNoise({ max: 0.41, denoised: 0 }, 120)).toBe(
      'noise: none to speak of (0.4 levels on the wall at most)',
    );
  });
});

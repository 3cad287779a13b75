import { describeNoise } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

describe('describeNoise', () => {
  it('says how many frames were blurred, or that the wall is clean', () => {
    expect(describeNoise({ max: 13.27, denoised: 118, unevenLight: 0 }, 120)).toBe(
      'noise: up to 13.3 levels on the wall; 118 of 120 frames box-blurred before labelling',
    );
    expect(describeNoise({ max: 0.41, denoised: 0, unevenLight: 0 }, 120)).toBe(
      'noise: none to speak of (0.4 levels on the wall at most)',
    );
    expect(describeNoise({ max: 0.3, denoised: 0, unevenLight: 30 }, 120)).toBe(
      'noise: none to speak of (0.3 levels on the wall at most); light uneven across the backdrop on 30 of 120 frames (labelled against it)',
    );
  });
});

import { describeNoise } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

describe('describeNoise', () => {
  it('says how many frames were blurred or unmixed, or that the wall is clean', () => {
    expect(
      describeNoise({ max: 13.27, denoised: 118, unevenLight: 0, softEdges: 0, dividerPx: 2 }, 120),
    ).toBe('noise: up to 13.3 levels on the wall; 118 of 120 frames box-blurred before labelling');
    expect(describeNoise({ max: 0.41, denoised: 0, unevenLight: 0, softEdges: 0, dividerPx: 2 }, 120)).toBe(
      'noise: none to speak of (0.4 levels on the wall at most)',
    );
    expect(
      describeNoise({ max: 0.3, denoised: 0, unevenLight: 30, softEdges: 0, dividerPx: Number.NaN }, 120),
    ).toBe(
      'noise: none to speak of (0.3 levels on the wall at most); light uneven across the backdrop on 30 of 120 frames (labelled against it)',
    );
    expect(
      describeNoise({ max: 9.1, denoised: 120, unevenLight: 0, softEdges: 120, dividerPx: 2.57 }, 120),
    ).toBe(
      'noise: up to 9.1 levels on the wall; 120 of 120 frames box-blurred before labelling; edges soft (the divider up to 2.6 px wide) on 120 of 120 frames: outlines unmixed from the backdrop',
    );
    expect(
      describeNoise({ max: 0.2, denoised: 0, unevenLight: 0, softEdges: 60, dividerPx: Number.NaN }, 60),
    ).toBe(
      'noise: none to speak of (0.2 levels on the wall at most); edges soft on 60 of 60 frames: outlines unmixed from the backdrop',
    );
  });
});

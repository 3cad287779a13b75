import { type FitData, FitState, fixSwaps } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { wolfFixture } from './helpers/wolf-fixture.js';

function problem(swaps: number) {
  const { data, truth, info, corrupt, model } = wolfFixture({
    frames: 60,
    seed: 11,
    corrupt: { noisePx: 1, swaps },
    exactTruth: true,
  });
  const { t } = data;
  // A fit that followed the true motion (the clip stage's smooth fit, idealised).
  const st = new FitState(model, t);
  st.x.set(truth.joints);
  const clean = corrupt({ noisePx: 1, swaps: 0 });
  const swapped = (d: FitData) => {
    let frames = 0;
    for (let f = 0; f < t; f++) {
      let differs = false;
      for (let i = f * d.k; i < (f + 1) * d.k; i++) {
        for (const [uv, ref] of [
          [d.front, clean.frontUv],
          [d.side, clean.sideUv],
        ] as const) {
          if (Number.isFinite(ref[2 * i] as number) && (uv[2 * i] as number) !== (ref[2 * i] as number))
            differs = true;
        }
      }
      if (differs) frames++;
    }
    return frames;
  };
  return { data, st, info, swapped };
}

describe('fixSwaps', () => {
  it("undoes every left/right swap against the fit's own joints ('fit'), side view included", () => {
    const { data, st, info, swapped } = problem(0.25);
    const before = swapped(data);
    expect(before).toBeGreaterThan(8);
    const fixed = fixSwaps(data, st, info, 6, 'fit');
    expect(fixed.front + fixed.side).toBe(before);
    expect(swapped(data)).toBe(0);
  });

  it('leaves correctly labelled detections alone in both modes', () => {
    for (const predict of ['fit', 'neighbours'] as const) {
      const { data, st, info, swapped } = problem(0);
      expect(fixSwaps(data, st, info, 6, predict)).toEqual({ front: 0, side: 0 });
      expect(swapped(data)).toBe(0);
    }
  });
});

import { seededRandom } from '@mocap/anim-loop';
import { fit, syntheticDetections, syntheticMotion } from '@mocap/solver';
import { heightGap, syncChecks } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

function views(lagFrames: number) {
  const { model, layout, info } = loadCreature('wolf');
  const truth = syntheticMotion(model, info, { frames: 60, seed: 7 });
  const names = model.keypoints.map((k) => k.name);
  const det = syntheticDetections(truth.joints, names, 30, layout, info, {
    noisePx: 0.5,
    lagFrames,
    seed: 7,
  });
  const d = {
    t: det.frames,
    k: names.length,
    front: Float64Array.from(det.frontUv, (x) => (Number.isFinite(x) ? x : 0)),
    side: Float64Array.from(det.sideUv, (x) => (Number.isFinite(x) ? x : 0)),
    frontConf: Float64Array.from(det.frontConf),
    sideConf: Float64Array.from(det.sideConf),
  };
  return { d, det, model, layout, info };
}

describe('syncChecks', () => {
  for (const lag of [3, -4]) {
    it(`finds a known lag of ${lag} frames and warps the front view onto the side view`, () => {
      const { d, info } = views(lag);
      const before = heightGap(d, 0) ?? 0;
      const sync = syncChecks(d, info.feet);
      expect(sync.lag_frames).toBe(lag);
      expect(sync.warped).toBe(true);
      expect(sync.height_gap_px).toBeCloseTo(before, 9);
      expect(sync.height_gap_after_px).toBeLessThan(0.85 * sync.height_gap_px);
      expect(sync.height_gap_after_px).toBeLessThan(1.5);
    });
  }

  it('leaves an in-sync clip alone and reports full paw agreement', () => {
    const { d, info } = views(0);
    const sync = syncChecks(d, info.feet);
    expect(sync.lag_frames).toBe(0);
    expect(sync.warped).toBe(false);
    expect(sync.paw_agreement).toBe(1);
  });

  it('reports the lag in motion.json after a fit', () => {
    const { det, model, layout, info } = views(2);
    const { motion } = fit(model, det, { layout, creature: info, clipIterations: 1, frameIterations: 3 });
    expect(motion.sync.lag_frames).toBe(2);
    expect(motion.sync.warped).toBe(true);
  });
});

describe('heightGap', () => {
  // Odd and even counts, ties, and a joint never seen in one view (left out of the median).
  for (const [t, k, levels] of [
    [7, 3, 1000],
    [8, 3, 1000],
    [9, 4, 3],
    [64, 34, 50],
  ] as const) {
    it(`is the median |v_front - v_side| of confident pairs (T = ${t}, K = ${k}, ${levels} levels)`, () => {
      const rng = seededRandom(t * 100 + k, { seedMix: 'golden', normal: 'pair' });
      const d = {
        t,
        k,
        front: Float64Array.from({ length: t * k * 2 }, () => rng.int(levels)),
        side: Float64Array.from({ length: t * k * 2 }, () => rng.int(levels)),
        frontConf: Float64Array.from({ length: t * k }, (_, i) => (i % k === 1 ? 0 : 1)),
        sideConf: Float64Array.from({ length: t * k }, () => 1),
      };
      for (const lag of [0, 2, -3]) {
        const gaps: number[] = [];
        for (let f = 0; f < t; f++) {
          const g = f + lag;
          if (g < 0 || g >= t) continue;
          for (let j = 0; j < k; j++) {
            if (j === 1) continue;
            gaps.push(
              Math.abs((d.front[2 * (g * k + j) + 1] as number) - (d.side[2 * (f * k + j) + 1] as number)),
            );
          }
        }
        gaps.sort((a, b) => a - b);
        const n = gaps.length;
        const median =
          n % 2 ? gaps[(n - 1) / 2] : ((gaps[n / 2 - 1] as number) + (gaps[n / 2] as number)) / 2;
        expect(heightGap(d, lag)).toBe(median);
      }
    });
  }
});

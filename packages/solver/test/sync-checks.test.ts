import { fit, heightGap, syncChecks, syntheticDetections, syntheticMotion } from '@mocap/solver';
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

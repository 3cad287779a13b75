import { type Detections, MotionJson } from '@mocap/layout';
import { describeFrameTiming, fit, gaitMotion, scoreJoints, syntheticDetections } from '@mocap/solver';
import { detectionsOnSourceGrid, estimateFrameTiming } from '@mocap/solver/internal';
import { describe, expect, it } from 'vitest';
import { loadCreature } from './helpers.js';

const wolf = loadCreature('wolf');
const names = wolf.model.keypoints.map((k) => k.name);
const k = names.length;
// 5 s of the wolf's gait at 30 fps: the source
const source = gaitMotion(wolf.model, wolf.info, { frames: 150, seed: 5 });

/** The source's frames nearest times k * fps_src / fps + phase, as a clip at `fps` (0.5 px noise). */
function resampled(fps: number, phase = 0) {
  const r = 30 / fps;
  const picks: number[] = [];
  for (let f = 0; Math.round(f * r + phase) - Math.round(phase) < 150; f++)
    picks.push(Math.round(f * r + phase) - Math.round(phase));
  const joints = new Float64Array(picks.length * k * 3);
  for (const [f, s] of picks.entries())
    joints.set(source.joints.subarray(s * k * 3, (s + 1) * k * 3), f * k * 3);
  const det = syntheticDetections(joints, names, fps, wolf.layout, wolf.info, { noisePx: 0.5, seed: 2 });
  return { det, joints, picks };
}

/** The 30 fps source at `rate` fps (nearest frames), repeated to 30 fps (nearest again): what a slower clip re-encoded at 30 shows. */
function repeated(rate: number) {
  const picks: number[] = [];
  for (let f = 0; ; f++) {
    const j = Math.round((f * rate) / 30);
    const s = Math.round((j * 30) / rate);
    if (s >= 150) break;
    picks.push(s);
  }
  const joints = new Float64Array(picks.length * k * 3);
  for (const [f, s] of picks.entries())
    joints.set(source.joints.subarray(s * k * 3, (s + 1) * k * 3), f * k * 3);
  const det = syntheticDetections(joints, names, 30, wolf.layout, wolf.info, { noisePx: 0.5, seed: 2 });
  return { det, joints, frames: picks.map((f) => Math.round((f * rate) / 30)) };
}

describe('estimateFrameTiming', () => {
  it('finds a 30 fps source picked by nearest frames at 24 fps, at any phase', () => {
    for (const phase of [0, 0.5, 0.8]) {
      const { det, picks } = resampled(24, phase);
      const t = estimateFrameTiming(det);
      expect(t?.sourceFps).toBe(30);
      expect(Array.from(t?.sourceFrames ?? [])).toEqual(picks);
      expect(t?.ratio).toBeLessThan(0.85);
    }
  });

  it('finds a 16 or 24 fps source repeated to 30 fps', () => {
    for (const rate of [16, 24]) {
      const { det, frames } = repeated(rate);
      const t = estimateFrameTiming(det);
      expect(t?.sourceFps).toBe(rate);
      expect(Array.from(t?.sourceFrames ?? [])).toEqual(frames);
    }
  });

  it('leaves even steps alone: a gait at 30, 24 and 16 fps, every other frame of the source, a clip too short to tell', () => {
    for (const fps of [30, 24, 16]) {
      const gait = gaitMotion(wolf.model, wolf.info, { frames: 120, seed: 6, fps });
      for (const noisePx of [0, 0.5]) {
        const even = syntheticDetections(gait.joints, names, fps, wolf.layout, wolf.info, {
          noisePx,
          seed: 2,
        });
        expect(estimateFrameTiming(even)).toBeNull();
      }
    }
    expect(estimateFrameTiming(resampled(15).det)).toBeNull();
    const short = resampled(24).det;
    expect(estimateFrameTiming({ ...short, frames: 7 })).toBeNull();
  });
});

describe('detectionsOnSourceGrid', () => {
  it("averages the frames that repeat one source frame, by confidence, and keeps the repeats' best confidence", () => {
    const { det } = repeated(16);
    const timing = estimateFrameTiming(det);
    if (!timing) throw new Error('no timing found');
    const src = Array.from(timing.sourceFrames);
    const f = src.findIndex((s, i) => i > 0 && s === src[i - 1]);
    // the second read of the repeat moved by 4 px at half the confidence
    const moved = { ...det, frontUv: det.frontUv.slice(), frontConf: det.frontConf.slice() };
    moved.frontUv[2 * f * k] = (det.frontUv[2 * (f - 1) * k] as number) + 4;
    moved.frontConf[f * k] = 0.5;
    moved.frontConf[(f - 1) * k] = 1;
    const grid = detectionsOnSourceGrid(moved, timing);
    expect(grid.frames).toBe((src.at(-1) as number) + 1);
    const s = src[f] as number;
    expect(grid.frontUv[2 * s * k]).toBeCloseTo((det.frontUv[2 * (f - 1) * k] as number) + 4 / 3, 4);
    expect(grid.frontConf[s * k]).toBe(1);
  });

  it("puts each frame at its source frame and the frames between at confidence 0, at the source's rate", () => {
    const { det, picks } = resampled(24);
    const timing = estimateFrameTiming(det);
    if (!timing) throw new Error('no timing found');
    const grid = detectionsOnSourceGrid(det, timing);
    expect(grid.fps).toBe(30);
    expect(grid.frames).toBe((picks.at(-1) as number) + 1);
    expect(grid.frontConf).toHaveLength(grid.frames * k);
    for (let s = 0; s < grid.frames; s++) {
      const f = picks.indexOf(s);
      const conf = grid.sideConf.subarray(s * k, (s + 1) * k);
      if (f < 0) {
        expect(Math.max(...conf)).toBe(0);
        continue;
      }
      expect(Array.from(conf)).toEqual(Array.from(det.sideConf.subarray(f * k, (f + 1) * k)));
      expect(Array.from(grid.frontUv.subarray(s * k * 2, (s + 1) * k * 2))).toEqual(
        Array.from(det.frontUv.subarray(f * k * 2, (f + 1) * k * 2)),
      );
    }
  });
});

/** The clip fitted with its timing found and at even steps, and each fit's mean error (cm) against `joints`. */
function fitBoth(det: Detections, joints: Float64Array) {
  const options = { layout: wolf.layout, creature: wolf.info, noiseAdaptive: false };
  const auto = fit(wolf.model, det, options);
  const even = fit(wolf.model, det, { ...options, frameTiming: 'even' });
  const error = (r: typeof auto) => scoreJoints(r.joints, joints, names).error_cm.mean;
  return { auto, even, autoError: error(auto), evenError: error(even) };
}

describe('fit on the source grid', () => {
  it('fits a 16 fps clip repeated to 30 fps once per source frame, each repeat the same pose', () => {
    const { det, joints, frames } = repeated(16);
    const { auto, autoError, evenError } = fitBoth(det, joints);
    expect(auto.timing?.sourceFps).toBe(16);
    expect(auto.motion.fps).toBe(30);
    expect(auto.motion.trans).toHaveLength(det.frames);
    expect(auto.motion.frame_timing?.source_frames).toEqual(frames);
    const f = frames.findIndex((s, i) => i > 0 && s === frames[i - 1]);
    expect(auto.motion.euler[f]).toEqual(auto.motion.euler[f - 1]);
    expect(autoError).toBeLessThan(0.9 * evenError);
    expect(describeFrameTiming(auto.motion.frame_timing ?? { source_fps: 0, source_frames: [] })).toContain(
      `${det.frames} frames repeated from a 16 fps source (${new Set(frames).size} of its`,
    );
  });

  it("fits a nearest-frame 24 fps clip closer than at even steps and returns the clip's frames", () => {
    const { det, joints, picks } = resampled(24);
    const { auto, even, autoError, evenError } = fitBoth(det, joints);
    expect(auto.timing?.sourceFps).toBe(30);
    expect(even.timing).toBeNull();
    expect(auto.joints).toHaveLength(det.frames * k * 3);
    expect(() => MotionJson.parse(auto.motion)).not.toThrow();
    expect(auto.motion.fps).toBe(24);
    expect(auto.motion.trans).toHaveLength(det.frames);
    expect(auto.motion.reproj_px.per_frame).toHaveLength(det.frames);
    expect(auto.motion.frame_timing?.source_frames).toEqual(picks);
    expect(even.motion.frame_timing).toBeUndefined();
    expect(describeFrameTiming({ source_fps: 30, source_frames: picks })).toBe(
      `frame timing: ${det.frames} frames picked unevenly from a 30 fps source (${det.frames} of its ${(picks.at(-1) as number) + 1} frames); fitted on its time grid`,
    );
    expect(autoError).toBeLessThan(0.9 * evenError);
  });
});

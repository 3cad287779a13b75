import { findLoop, type MotionCore, makeSeamless, quatFromEuler, quatFromWxyz } from '@mocap/anim-loop';
import { quatAngle } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeMotion } from './util.js';

const bones = ['root', 'spine', 'neck', 'leg.L', 'leg.R', 'tail'];

/** Largest and seam (frame L-1 -> 0 -> 1) second differences of the Euler tracks, played cyclically. */
function cyclicAcceleration(m: MotionCore, seamOnly: boolean): number {
  const L = m.euler.length;
  let worst = 0;
  for (let k = 0; k < L; k++) {
    const atSeam = k === 0 || k === L - 1;
    if (seamOnly !== atSeam) continue;
    const a = m.euler[(k + L - 1) % L]!,
      b = m.euler[k]!,
      c = m.euler[(k + 1) % L]!;
    b.forEach((e, j) => {
      for (let x = 0; x < 3; x++) worst = Math.max(worst, Math.abs(c[j]![x]! - 2 * e[x]! + a[j]![x]!));
    });
  }
  return worst;
}

describe('findLoop', () => {
  it('finds a whole number of periods of a periodic motion, ends matching to 1e-9', () => {
    const m = makeMotion({ frames: 40, bones, seed: 1, period: 12 });
    const w = findLoop(m, { minFrames: 8 });
    expect((w.end - w.start) % 12).toBe(0);
    expect(w.distance).toBeLessThan(1e-9);
  });

  it('respects minFrames and maxFrames', () => {
    const m = makeMotion({ frames: 40, bones, seed: 2, period: 12 });
    const w = findLoop(m, { minFrames: 13, maxFrames: 30 });
    expect(w.end - w.start).toBe(24);
    const short = findLoop(m, { minFrames: 3, maxFrames: 6 });
    expect(short.end - short.start).toBeGreaterThanOrEqual(3);
    expect(short.end - short.start).toBeLessThanOrEqual(6);
    expect(short.distance).toBeGreaterThan(0.01);
  });

  it('rejects a motion too short for minFrames, and bad options with a TypeError', () => {
    const m = makeMotion({ frames: 5, bones, seed: 3, period: 4 });
    expect(() => findLoop(m, { minFrames: 8 })).toThrow(
      /findLoop: motion has 5 frames; a loop of at least 8 frames needs 9/,
    );
    expect(() => findLoop(m, { minFrames: 1 })).toThrow(TypeError);
    expect(() => findLoop(m, { minFrames: 1 })).toThrow(/Expected options.minFrames .* got 1/);
  });
});

describe('makeSeamless', () => {
  it('closes a drifting loop: residual below 1e-6 rad, seam as smooth as the rest', () => {
    const m = makeMotion({ frames: 30, bones, seed: 4, period: 12, drift: 0.02 });
    const naive = { ...m, euler: m.euler.slice(0, 24) };
    const loop = makeSeamless(m, { start: 0, end: 24 });
    expect(loop.motion.euler.length).toBe(24);
    expect(loop.residual).toBeLessThan(1e-6);
    expect(loop.residualM).toBeLessThan(1e-12);
    // The naive cut jumps at the seam; the seamless loop does not.
    expect(cyclicAcceleration(naive, true)).toBeGreaterThan(2 * cyclicAcceleration(naive, false));
    expect(cyclicAcceleration(loop.motion, true)).toBeLessThan(1.2 * cyclicAcceleration(loop.motion, false));
  });

  it('removes the root travel and reports it; the root track closes', () => {
    const m = makeMotion({ frames: 30, bones, seed: 5, period: 12, speed: 0.02 });
    const loop = makeSeamless(m, { start: 3, end: 15 });
    expectVec(loop.travel, [0, -0.24, 0], 1e-12);
    const t = loop.motion.trans;
    expectVec(t[0]!, m.trans[3]!, 0);
    // One frame past the end would be frame 0 again: the step L-1 -> 0 equals the periodic step.
    const L = t.length;
    const seamStep = t[0]!.map((v, c) => v - t[L - 1]![c]!);
    const origStep = m.trans[3]!.map((v, c) => v - m.trans[2]![c]! - (c === 1 ? -0.02 : 0));
    expectVec(seamStep, origStep, 1e-12);
  });

  it('property: any window of any motion closes with a seam residual below 1e-6 rad', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 5, max: 20 }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 3, max: 20 }),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
        (seed, period, drift, start, len, blendFrames) => {
          const m = makeMotion({ frames: 30, bones, seed, period, drift, amplitude: 1.5 });
          const loop = makeSeamless(
            m,
            { start, end: start + len },
            blendFrames === undefined ? {} : { blendFrames },
          );
          expect(loop.residual).toBeLessThan(1e-6);
          expect(loop.motion.euler.length).toBe(len);
          // Frame 0 is the window's first frame, untouched.
          const q0 = quatFromEuler(new Float64Array(4), loop.motion.euler[0]![2]!);
          expect(quatAngle(q0, quatFromEuler(new Float64Array(4), m.euler[start]![2]!))).toBeLessThan(1e-12);
          const r0 = quatFromWxyz(new Float64Array(4), loop.motion.root_quat[0]!);
          expect(quatAngle(r0, quatFromWxyz(new Float64Array(4), m.root_quat[start]!))).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects a bad window with a RangeError naming it', () => {
    const m = makeMotion({ frames: 10, bones, seed: 6, period: 4 });
    expect(() => makeSeamless(m, { start: 5, end: 6 })).toThrow(/makeSeamless: window \[5, 6\]/);
    expect(() => makeSeamless(m, { start: 0, end: 10 })).toThrow(RangeError);
    expect(() => makeSeamless(m, { start: 0, end: 8 }, { blendFrames: 0 })).toThrow(/options.blendFrames/);
  });
});

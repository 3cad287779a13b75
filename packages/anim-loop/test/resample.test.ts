import { quatFromEuler, resampleMotion } from '@mocap/anim-loop';
import { quatAngle, sampleQuatTrack, sampleTrack } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { makeMotion } from './util.js';

const bones = ['root', 'a', 'b.L', 'b.R'];
const flat = (rows: number[][][]) => rows.flat(2);

describe('resampleMotion', () => {
  it('to the same fps is the identity', () => {
    const m = makeMotion({ frames: 20, bones, seed: 1, period: 9 });
    const r = resampleMotion(m, 30);
    expect(r.trans.length).toBe(20);
    expectVec(r.trans.flat(), m.trans.flat(), 1e-15);
    expectVec(r.root_quat.flat(), m.root_quat.flat(), 1e-15);
    expectVec(flat(r.euler), flat(m.euler), 1e-12);
  });

  it('30 -> 60 -> 30 fps gives the original frames back; frame counts keep the duration', () => {
    const m = makeMotion({ frames: 31, bones, seed: 2, period: 11 });
    const up = resampleMotion(m, 60);
    expect(up.trans.length).toBe(61);
    expect(up.fps).toBe(60);
    const down = resampleMotion(up, 30);
    expect(down.trans.length).toBe(31);
    expectVec(down.trans.flat(), m.trans.flat(), 1e-15);
    expectVec(flat(down.euler), flat(m.euler), 1e-12);
    expect(resampleMotion(m, 24).trans.length).toBe(25); // 1 s at 24 fps: frames 0..24
    expect(resampleMotion(m, 25).trans.length).toBe(26);
  });

  it('a bone turning at constant speed about one axis is interpolated exactly (slerp)', () => {
    const m = {
      fps: 10,
      bones: ['root', 'arm'],
      trans: [0, 1, 2, 3].map((t) => [0.1 * t, 0, 0] as [number, number, number]),
      root_quat: [0, 1, 2, 3].map(() => [1, 0, 0, 0] as [number, number, number, number]),
      euler: [0, 1, 2, 3].map((t) => [
        [0, 0, 0] as [number, number, number],
        [0, 0, 0.7 * t] as [number, number, number],
      ]),
    };
    const r = resampleMotion(m, 40);
    expect(r.trans.length).toBe(13);
    r.euler.forEach((row, k) => {
      expectVec(row[1]!, [0, 0, (0.7 * k) / 4], 1e-12);
      expectVec(r.trans[k]!, [(0.1 * k) / 4, 0, 0], 1e-15);
    });
  });

  it('Euler tracks stay continuous past +-pi', () => {
    const m = {
      fps: 10,
      bones: ['root', 'spin'],
      trans: [0, 1, 2, 3, 4].map(() => [0, 0, 0] as [number, number, number]),
      root_quat: [0, 1, 2, 3, 4].map(() => [1, 0, 0, 0] as [number, number, number, number]),
      euler: [0, 1, 2, 3, 4].map((t) => [
        [0, 0, 0] as [number, number, number],
        [0.9 * t, 0, 0] as [number, number, number],
      ]),
    };
    const r = resampleMotion(m, 20);
    r.euler.forEach((row, k) => {
      expectVec(row[1]!, [0.45 * k, 0, 0], 1e-12);
    });
  });

  it('rejects a bad fps and inconsistent frames with a RangeError naming the field', () => {
    const m = makeMotion({ frames: 3, bones, seed: 3, period: 4 });
    expect(() => resampleMotion(m, 0)).toThrow(/resampleMotion: fps must be a finite number > 0, got 0/);
    expect(() => resampleMotion({ ...m, euler: m.euler.slice(1) }, 30)).toThrow(/2 euler frames/);
    const bad = { ...m, euler: m.euler.map((row, t) => (t === 1 ? row.slice(1) : row)) };
    expect(() => resampleMotion(bad, 30)).toThrow(/motion.euler\[1\] has 3 bones, bones has 4/);
  });
});

describe('sampleTrack and sampleQuatTrack', () => {
  it('interpolate linearly / by slerp and clamp outside the track', () => {
    const track = new Float64Array([0, 10, 2, 12, 4, 14]);
    expectVec(sampleTrack(new Float64Array(2), track, 2, 3, 0.25), [0.5, 10.5], 1e-15);
    expectVec(sampleTrack(new Float64Array(2), track, 2, 3, 2), [4, 14], 0);
    expectVec(sampleTrack(new Float64Array(2), track, 2, 3, 9), [4, 14], 0);
    expectVec(sampleTrack(new Float64Array(2), track, 2, 3, -1), [0, 10], 0);
    const q = new Float64Array(8);
    quatFromEuler(q.subarray(0, 4), [0, 0, 0]);
    quatFromEuler(q.subarray(4, 8), [0, 0, 1]);
    const mid = sampleQuatTrack(new Float64Array(4), q, 2, 0.3);
    expect(quatAngle(mid, q.subarray(0, 4))).toBeCloseTo(0.3, 14);
    expectVec(sampleQuatTrack(new Float64Array(4), q, 1, 0.5), q.subarray(0, 4), 0);
  });
});

describe('sampling aliasing (output is also an input)', () => {
  it('sampleTrack and sampleQuatTrack may write into the track they read', () => {
    const track = new Float64Array([0, 10, 2, 12, 4, 14]);
    const ref = sampleTrack(new Float64Array(2), track, 2, 3, 0.25);
    expectVec(sampleTrack(track.subarray(0, 2), track, 2, 3, 0.25), ref, 0);
    const q = new Float64Array(8);
    quatFromEuler(q.subarray(0, 4), [0.1, 0.2, 0.3]);
    quatFromEuler(q.subarray(4, 8), [0.4, -0.2, 1]);
    const refQ = sampleQuatTrack(new Float64Array(4), q, 2, 0.6);
    expectVec(sampleQuatTrack(q.subarray(4, 8), q, 2, 0.6), refQ, 0);
  });
});

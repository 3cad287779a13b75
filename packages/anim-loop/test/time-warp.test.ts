import { resampleMotion } from '@mocap/anim-loop';
import { timeWarpMotion, timeWarpQuatTrack, timeWarpTrack, warpPathToTimes } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { makeMotion } from './util.js';

const bones = ['root', 'a', 'b'];

describe('warpPathToTimes', () => {
  it('averages the source frames of each target frame and fills the gaps', () => {
    expectVec(
      warpPathToTimes(
        [
          [0, 0],
          [1, 0],
          [2, 1],
          [4, 2],
        ],
        3,
      ),
      [0.5, 2, 4],
      0,
    );
    expectVec(
      warpPathToTimes(
        [
          [1, 1],
          [5, 3],
        ],
        5,
      ),
      [1, 1, 3, 5, 5],
      0,
    );
  });

  it('rejects an empty, non-monotone or out-of-range path with a RangeError', () => {
    expect(() => warpPathToTimes([], 3)).toThrow(/empty/);
    expect(() =>
      warpPathToTimes(
        [
          [2, 0],
          [1, 1],
        ],
        2,
      ),
    ).toThrow(/path\[1\] = \[1, 1\] goes back from \[2,0\]/);
    expect(() => warpPathToTimes([[0, 5]], 3)).toThrow(/target 5 is not a frame/);
  });
});

describe('timeWarpTrack and timeWarpQuatTrack', () => {
  it('sample at the warped times; the identity warp changes nothing', () => {
    const track = new Float64Array([0, 0, 1, 10, 2, 20, 3, 30]);
    expectVec(timeWarpTrack(new Float64Array(8), track, 2, 4, [0, 1, 2, 3]), track, 0);
    expectVec(timeWarpTrack(new Float64Array(6), track, 2, 4, [0, 0.5, 3]), [0, 0, 0.5, 5, 3, 30], 1e-15);
    const q = new Float64Array([0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2]);
    const out = timeWarpQuatTrack(new Float64Array(8), q, 2, [0.5, 1]);
    expectVec(out.subarray(0, 4), [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)], 1e-15);
  });

  it('rejects times that go back or leave the track, naming the index and value', () => {
    const track = new Float64Array(8);
    expect(() => timeWarpTrack(new Float64Array(8), track, 2, 4, [0, 2, 1])).toThrow(
      /timeWarpTrack: times\[2\] = 1 is before times\[1\] = 2; a warp is monotone/,
    );
    expect(() => timeWarpTrack(new Float64Array(8), track, 2, 4, [0, 3.5])).toThrow(/times\[1\] is 3.5/);
    expect(() => timeWarpQuatTrack(new Float64Array(8), track, 2, [Number.NaN])).toThrow(/times\[0\] is NaN/);
  });
});

describe('timeWarpMotion', () => {
  it('a uniform half-frame warp equals resampling to twice the fps', () => {
    const m = makeMotion({ frames: 12, bones, seed: 4, period: 7 });
    const times = Array.from({ length: 23 }, (_, k) => k / 2);
    const w = timeWarpMotion(m, times);
    const r = resampleMotion(m, 60);
    expectVec(w.trans.flat(), r.trans.flat(), 1e-15);
    expectVec(w.root_quat.flat(), r.root_quat.flat(), 1e-15);
    expectVec(w.euler.flat(2), r.euler.flat(2), 1e-12);
    expect(w.fps).toBe(30);
  });

  it('holds a frame where the warp stands still', () => {
    const m = makeMotion({ frames: 6, bones, seed: 5, period: 5 });
    const w = timeWarpMotion(m, [0, 1, 1, 1, 2]);
    expect(w.trans.length).toBe(5);
    expectVec(w.euler[2]!.flat(), m.euler[1]!.flat(), 1e-12);
    expectVec(w.euler[3]!.flat(), m.euler[1]!.flat(), 1e-12);
    expect(() => timeWarpMotion(m, [0, 6])).toThrow(/timeWarpMotion: times\[1\] is 6/);
  });
});

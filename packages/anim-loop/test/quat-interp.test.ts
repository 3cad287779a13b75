import { quatLog, quatMultiply } from '@mocap/anim-loop';
import {
  quatAngle,
  quatAngularVelocity,
  quatExp,
  quatFromAxisAngle,
  quatNlerp,
  quatSlerp,
  quatTrackContinuity,
} from '@mocap/anim-loop/internal';
import { expectQuat, expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import { num, q4, tq, unitQuat, v3 } from './util.js';

describe('interpolation against three.js', () => {
  it('slerp agrees to 1e-12 and angle to 1e-7 (three.js uses acos)', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, num(0, 1), (a, b, t) => {
        expectQuat(quatSlerp(q4(), a, b, t), new Quaternion().slerpQuaternions(tq(a), tq(b), t).toArray());
        expect(quatAngle(a, b)).toBeCloseTo(tq(a).angleTo(tq(b)), 7);
      }),
    );
  });
});

describe('interpolation properties', () => {
  it('log / exp round trip; q and -q are 0 apart', () => {
    fc.assert(
      fc.property(unitQuat, (q) => {
        expectQuat(quatExp(q4(), quatLog(v3(), q)), q, 1e-12);
        expect(
          quatAngle(
            q,
            q.map((x) => -x),
          ),
        ).toBeLessThan(1e-7);
      }),
    );
  });

  it('slerp hits its endpoints and turns at constant angular speed', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, num(0, 1), num(0, 1), (a, b, t1, t2) => {
        expectQuat(quatSlerp(q4(), a, b, 0), a, 1e-12);
        expectQuat(quatSlerp(q4(), a, b, 1), b, 1e-12);
        const total = quatAngle(a, b);
        const p = quatSlerp(q4(), a, b, t1);
        const r = quatSlerp(q4(), a, b, t2);
        expect(Math.abs(quatAngle(a, p) - t1 * total)).toBeLessThan(1e-7);
        expect(Math.abs(quatAngle(p, r) - Math.abs(t2 - t1) * total)).toBeLessThan(1e-7);
      }),
    );
  });

  it('nlerp hits its endpoints and stays on the shorter arc', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, num(0, 1), (a, b, t) => {
        expectQuat(quatNlerp(q4(), a, b, 0), a, 1e-15);
        expectQuat(quatNlerp(q4(), a, b, 1), b, 1e-15);
        const m = quatNlerp(q4(), a, b, t);
        expect(quatAngle(a, m) + quatAngle(m, b)).toBeCloseTo(quatAngle(a, b), 7);
      }),
    );
  });

  it('angular velocity integrates back: exp(omega dt / 2) q0 = q1', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, num(0.01, 1), (a, b, dt) => {
        const w = quatAngularVelocity(v3(), a, b, dt);
        const half = [(w[0]! * dt) / 2, (w[1]! * dt) / 2, (w[2]! * dt) / 2];
        expectQuat(quatMultiply(q4(), quatExp(q4(), half), a), b, 1e-11);
        expect(Math.hypot(...w) * dt).toBeCloseTo(quatAngle(a, b), 7);
      }),
    );
  });

  it('track continuity makes neighbours agree in sign without changing rotations', () => {
    fc.assert(
      fc.property(fc.array(unitQuat, { minLength: 2, maxLength: 20 }), (qs) => {
        const track = new Float64Array(qs.flat());
        quatTrackContinuity(track);
        for (let t = 0; t < qs.length; t++) {
          const q = track.subarray(t * 4, t * 4 + 4);
          expectQuat(q, qs[t]!, 0);
          if (t > 0) {
            const prev = track.subarray(t * 4 - 4, t * 4);
            expect(
              q[0]! * prev[0]! + q[1]! * prev[1]! + q[2]! * prev[2]! + q[3]! * prev[3]!,
            ).toBeGreaterThanOrEqual(0);
          }
        }
        expect(quatTrackContinuity(track, 0)).toBe(track);
      }),
    );
  });
});

describe('interpolation edge cases', () => {
  it('180 degrees: log has length pi / 2', () => {
    const q = quatFromAxisAngle(q4(), [0.3, -0.2, 0.9], Math.PI);
    expect(Math.hypot(...quatLog(v3(), q))).toBeCloseTo(Math.PI / 2, 14);
  });

  it('identity and tiny rotations: log and exp are finite and exact', () => {
    expectVec(quatLog(v3(), [0, 0, 0, 1]), [0, 0, 0], 0);
    expectVec(quatExp(q4(), [0, 0, 0]), [0, 0, 0, 1], 0);
    const tiny = quatFromAxisAngle(q4(), [0, 0, 1], 1e-14);
    expectVec(quatLog(v3(), tiny), [0, 0, 5e-15], 1e-28);
    expectQuat(quatExp(q4(), [1e-13, 0, 0]), [1e-13, 0, 0, 1], 1e-28);
  });

  it('slerp of nearly equal quaternions stays unit length', () => {
    const a = quatFromAxisAngle(q4(), [0, 1, 0], 0.3);
    const b = quatFromAxisAngle(q4(), [0, 1, 0], 0.3 + 1e-12);
    const s = quatSlerp(q4(), a, b, 0.5);
    expect(Math.hypot(...s)).toBeCloseTo(1, 14);
    expectQuat(s, quatFromAxisAngle(q4(), [0, 1, 0], 0.3 + 5e-13), 1e-14);
  });

  it('a bad dt throws a RangeError naming quatAngularVelocity', () => {
    expect(() => quatAngularVelocity(v3(), [0, 0, 0, 1], [0, 0, 0, 1], 0)).toThrow(
      /quatAngularVelocity: dt must be > 0/,
    );
  });
});

describe('interpolation aliasing (output is also an input)', () => {
  it('slerp, nlerp, log, exp and angular velocity work in place', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, num(0, 1), (a, b, t) => {
        const check = (f: (out: Float64Array, x: Float64Array, y: Float64Array) => Float64Array) => {
          const ref = f(q4(), Float64Array.from(a), Float64Array.from(b));
          const x = Float64Array.from(a);
          expectVec(f(x, x, Float64Array.from(b)), ref, 0);
          const y = Float64Array.from(b);
          expectVec(f(y, Float64Array.from(a), y), ref, 0);
        };
        check((o, x, y) => quatSlerp(o, x, y, t));
        check((o, x, y) => quatNlerp(o, x, y, t));
        const lg = Float64Array.from(a);
        const refLog = quatLog(v3(), lg);
        expectVec(quatLog(lg, lg).subarray(0, 3), refLog, 0);
        const ex = Float64Array.from([a[0], a[1], a[2], 0]);
        const refExp = quatExp(q4(), ex);
        expectVec(quatExp(ex, ex), refExp, 0);
        const av = Float64Array.from(a);
        const refAv = quatAngularVelocity(v3(), a, b, 0.1);
        expectVec(quatAngularVelocity(av, av, b, 0.1).subarray(0, 3), refAv, 0);
        const bv = Float64Array.from(b);
        expectVec(quatAngularVelocity(bv, a, bv, 0.1).subarray(0, 3), refAv, 0);
      }),
      { numRuns: 50 },
    );
  });
});

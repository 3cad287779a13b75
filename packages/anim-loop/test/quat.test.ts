import {
  mat3FromQuat,
  quatAngle,
  quatAngularVelocity,
  quatConjugate,
  quatExp,
  quatFromAxisAngle,
  quatFromMat3,
  quatFromWxyz,
  quatIdentity,
  quatInvert,
  quatLog,
  quatMultiply,
  quatNlerp,
  quatNormalize,
  quatRotateVec3,
  quatSlerp,
  quatToAxisAngle,
  quatToWxyz,
  quatTrackContinuity,
} from '@mocap/anim-loop';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { expectQuat, expectVec, num, unitQuat, vec3Arb } from './util.js';

const q4 = () => new Float64Array(4);
const v3 = () => new Float64Array(3);
const tq = (q: ArrayLike<number>) => new Quaternion(q[0], q[1], q[2], q[3]);
const m3of4 = (e: number[]) => [e[0]!, e[1]!, e[2]!, e[4]!, e[5]!, e[6]!, e[8]!, e[9]!, e[10]!];

describe('quat against three.js', () => {
  it('multiply, invert, normalize, rotate and angle agree to 1e-12', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, vec3Arb(), (a, b, v) => {
        expectVec(quatMultiply(q4(), a, b), tq(a).multiply(tq(b)).toArray());
        expectVec(quatInvert(q4(), a), tq(a).invert().toArray());
        const raw = [a[0] * 3, a[1] * 3, a[2] * 3, a[3] * 3];
        expectVec(quatNormalize(q4(), raw), tq(raw).normalize().toArray());
        expectVec(quatRotateVec3(v3(), a, v), new Vector3(...v).applyQuaternion(tq(a)).toArray(), 1e-11);
        expect(quatAngle(a, b)).toBeCloseTo(tq(a).angleTo(tq(b)), 7); // three uses acos: ~1e-8 near 0
      }),
    );
  });

  it('axis-angle, slerp and matrix conversions agree to 1e-12', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, vec3Arb(1), num(-7, 7), num(0, 1), (a, b, axis, ang, t) => {
        fc.pre(Math.hypot(...axis) > 1e-3);
        const n = Math.hypot(...axis);
        const unit = new Vector3(axis[0] / n, axis[1] / n, axis[2] / n);
        expectVec(quatFromAxisAngle(q4(), axis, ang), new Quaternion().setFromAxisAngle(unit, ang).toArray());
        expectQuat(quatSlerp(q4(), a, b, t), new Quaternion().slerpQuaternions(tq(a), tq(b), t).toArray());
        const m = new Matrix4().makeRotationFromQuaternion(tq(a)).elements;
        expectVec(mat3FromQuat(new Float64Array(9), a), m3of4(m));
        expectQuat(
          quatFromMat3(q4(), m3of4(m)),
          new Quaternion().setFromRotationMatrix(new Matrix4().fromArray(m)).toArray(),
        );
        expectQuat(quatFromMat3(q4(), m3of4(m)), a);
      }),
    );
  });
});

describe('quat properties', () => {
  it('q and -q are the same rotation', () => {
    fc.assert(
      fc.property(unitQuat, vec3Arb(), (q, v) => {
        const neg = q.map((x) => -x);
        expectVec(quatRotateVec3(v3(), neg, v), quatRotateVec3(v3(), q, v), 1e-12);
        expectVec(mat3FromQuat(new Float64Array(9), neg), mat3FromQuat(new Float64Array(9), q), 1e-15);
        expect(quatAngle(q, neg)).toBeLessThan(1e-7);
      }),
    );
  });

  it('round trips: log/exp, axis-angle, matrix, WXYZ', () => {
    fc.assert(
      fc.property(unitQuat, (q) => {
        expectQuat(quatExp(q4(), quatLog(v3(), q)), q, 1e-12);
        const axis = v3();
        const ang = quatToAxisAngle(axis, q);
        expectQuat(quatFromAxisAngle(q4(), axis, ang), q, 1e-12);
        expectQuat(quatFromMat3(q4(), mat3FromQuat(new Float64Array(9), q)), q, 1e-12);
        const wxyz = quatToWxyz(q4(), q);
        expectVec(wxyz, [q[3], q[0], q[1], q[2]], 0);
        expectVec(quatFromWxyz(q4(), wxyz), q, 0);
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
          if (t > 0)
            expect(
              q[0]! * track[t * 4 - 4]! +
                q[1]! * track[t * 4 - 3]! +
                q[2]! * track[t * 4 - 2]! +
                q[3]! * track[t * 4 - 1]!,
            ).toBeGreaterThanOrEqual(0);
        }
        expect(quatTrackContinuity(track, 0)).toBe(track);
      }),
    );
  });
});

describe('quat edge cases', () => {
  it('180 degrees: axis-angle, matrix and log survive', () => {
    for (const axis of [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
      [1, 1, 0],
      [0.3, -0.2, 0.9],
    ]) {
      const q = quatFromAxisAngle(q4(), axis, Math.PI);
      expect(q[3]).toBeCloseTo(0, 15);
      const m = mat3FromQuat(new Float64Array(9), q);
      expectQuat(quatFromMat3(q4(), m), q, 1e-12);
      const out = v3();
      expect(quatToAxisAngle(out, q)).toBeCloseTo(Math.PI, 14);
      expect(Math.hypot(...quatLog(v3(), q))).toBeCloseTo(Math.PI / 2, 14);
    }
  });

  it('identity and tiny rotations: log, exp, axis-angle are finite and exact', () => {
    const id = quatIdentity(q4());
    expectVec(quatLog(v3(), id), [0, 0, 0], 0);
    expectVec(quatExp(q4(), [0, 0, 0]), id, 0);
    const axis = v3();
    expect(quatToAxisAngle(axis, id)).toBe(0);
    expectVec(axis, [1, 0, 0], 0);
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

  it('zero quaternions and bad dt throw a RangeError naming the function', () => {
    expect(() => quatNormalize(q4(), [0, 0, 0, 0])).toThrow(/quatNormalize/);
    expect(() => quatInvert(q4(), [0, 0, 0, 0])).toThrow(RangeError);
    expect(() => quatAngularVelocity(v3(), [0, 0, 0, 1], [0, 0, 0, 1], 0)).toThrow(/dt must be > 0/);
    expectVec(quatFromAxisAngle(q4(), [0, 0, 0], 1), [0, 0, 0, 1], 0);
  });
});

describe('quat aliasing (output is also an input)', () => {
  it('every out-first function gives the same result in place', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, num(0, 1), (a, b, t) => {
        const check = (f: (out: Float64Array, x: Float64Array, y: Float64Array) => Float64Array) => {
          const ref = f(q4(), Float64Array.from(a), Float64Array.from(b));
          const x = Float64Array.from(a);
          expectVec(f(x, x, Float64Array.from(b)), ref, 0);
          const y = Float64Array.from(b);
          expectVec(f(y, Float64Array.from(a), y), ref, 0);
        };
        check((o, x, y) => quatMultiply(o, x, y));
        check((o, x, y) => quatSlerp(o, x, y, t));
        check((o, x, y) => quatNlerp(o, x, y, t));
        check((o, x) => quatConjugate(o, x));
        check((o, x) => quatInvert(o, x));
        check((o, x) => quatNormalize(o, x));
        check((o, x) => quatFromWxyz(o, x));
        check((o, x) => quatToWxyz(o, x));
        const v = Float64Array.from([b[0], b[1], b[2]]);
        const ref = quatRotateVec3(v3(), a, v);
        expectVec(quatRotateVec3(v, a, v), ref, 0);
        const lg = Float64Array.from(a);
        const refLog = quatLog(v3(), lg);
        expectVec(quatLog(lg, lg).subarray(0, 3), refLog, 0);
        const ex = Float64Array.from([a[0], a[1], a[2], 0]);
        const refExp = quatExp(q4(), ex);
        expectVec(quatExp(ex, ex), refExp, 0);
        const m = mat3FromQuat(new Float64Array(9), a);
        const mq = Float64Array.from(m);
        expectVec(quatFromMat3(mq, mq).subarray(0, 4), quatFromMat3(q4(), m), 0);
        const av = Float64Array.from(a);
        const refAv = quatAngularVelocity(v3(), a, b, 0.1);
        expectVec(quatAngularVelocity(av, av, b, 0.1).subarray(0, 3), refAv, 0);
      }),
      { numRuns: 50 },
    );
  });
});

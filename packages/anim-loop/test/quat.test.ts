import { quatConjugate, quatMultiply } from '@mocap/anim-loop';
import {
  quatCopy,
  quatFromAxisAngle,
  quatIdentity,
  quatInvert,
  quatNormalize,
  quatRotateVec3,
  quatToAxisAngle,
} from '@mocap/anim-loop/internal';
import { expectQuat, expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { HALF_TURN_AXES, num, q4, tq, unitQuat, v3, vec3Arb } from './util.js';

describe('quat against three.js', () => {
  it('multiply, invert, normalize and rotate agree to 1e-12', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, vec3Arb(), (a, b, v) => {
        expectVec(quatMultiply(q4(), a, b), tq(a).multiply(tq(b)).toArray());
        expectVec(quatInvert(q4(), a), tq(a).invert().toArray());
        const raw = [a[0] * 3, a[1] * 3, a[2] * 3, a[3] * 3];
        expectVec(quatNormalize(q4(), raw), tq(raw).normalize().toArray());
        expectVec(quatRotateVec3(v3(), a, v), new Vector3(...v).applyQuaternion(tq(a)).toArray(), 1e-11);
      }),
    );
  });

  it('axis-angle agrees to 1e-12', () => {
    fc.assert(
      fc.property(vec3Arb(1), num(-7, 7), (axis, ang) => {
        fc.pre(Math.hypot(...axis) > 1e-3);
        const n = Math.hypot(...axis);
        const unit = new Vector3(axis[0] / n, axis[1] / n, axis[2] / n);
        expectVec(quatFromAxisAngle(q4(), axis, ang), new Quaternion().setFromAxisAngle(unit, ang).toArray());
      }),
    );
  });
});

describe('quat properties', () => {
  it('q and -q rotate vectors the same', () => {
    fc.assert(
      fc.property(unitQuat, vec3Arb(), (q, v) => {
        const neg = q.map((x) => -x);
        expectVec(quatRotateVec3(v3(), neg, v), quatRotateVec3(v3(), q, v), 1e-12);
      }),
    );
  });

  it('axis-angle round trip; q * q^-1 = identity; conjugate = inverse for unit q', () => {
    fc.assert(
      fc.property(unitQuat, (q) => {
        const axis = v3();
        const ang = quatToAxisAngle(axis, q);
        expectQuat(quatFromAxisAngle(q4(), axis, ang), q, 1e-12);
        expectQuat(quatMultiply(q4(), q, quatInvert(q4(), q)), [0, 0, 0, 1], 1e-15);
        expectVec(quatConjugate(q4(), q), quatInvert(q4(), q), 1e-15);
      }),
    );
  });
});

describe('quat edge cases', () => {
  it('180 degrees: axis-angle survives', () => {
    for (const axis of HALF_TURN_AXES) {
      const q = quatFromAxisAngle(q4(), axis, Math.PI);
      expect(q[3]).toBeCloseTo(0, 15);
      const out = v3();
      expect(quatToAxisAngle(out, q)).toBeCloseTo(Math.PI, 14);
      const n = Math.hypot(...axis);
      expectVec(
        out,
        axis.map((x) => x / n),
        1e-15,
      );
    }
  });

  it('identity: axis [1, 0, 0], angle 0; a zero axis gives the identity', () => {
    const axis = v3();
    expect(quatToAxisAngle(axis, quatIdentity(q4()))).toBe(0);
    expectVec(axis, [1, 0, 0], 0);
    expectVec(quatFromAxisAngle(q4(), [0, 0, 0], 1), [0, 0, 0, 1], 0);
  });

  it('zero quaternions throw a RangeError naming the function', () => {
    expect(() => quatNormalize(q4(), [0, 0, 0, 0])).toThrow(/quatNormalize/);
    expect(() => quatInvert(q4(), [0, 0, 0, 0])).toThrow(/quatInvert/);
  });
});

describe('quat aliasing (output is also an input)', () => {
  it('every out-first function gives the same result in place', () => {
    fc.assert(
      fc.property(unitQuat, unitQuat, vec3Arb(), (a, b, v) => {
        const check = (f: (out: Float64Array, x: Float64Array, y: Float64Array) => Float64Array) => {
          const ref = f(q4(), Float64Array.from(a), Float64Array.from(b));
          const x = Float64Array.from(a);
          expectVec(f(x, x, Float64Array.from(b)), ref, 0);
          const y = Float64Array.from(b);
          expectVec(f(y, Float64Array.from(a), y), ref, 0);
        };
        check((o, x, y) => quatMultiply(o, x, y));
        check((o, x) => quatConjugate(o, x));
        check((o, x) => quatInvert(o, x));
        check((o, x) => quatNormalize(o, x));
        check((o, x) => quatCopy(o, x));
        const w = Float64Array.from(v);
        expectVec(quatRotateVec3(w, a, w), quatRotateVec3(v3(), a, v), 0);
        const ax = Float64Array.from([v[0], v[1], v[2], 0]);
        expectVec(quatFromAxisAngle(ax, ax, 0.7), quatFromAxisAngle(q4(), v, 0.7), 0);
        const aa = Float64Array.from(a);
        const refAngle = quatToAxisAngle(v3(), a);
        expect(quatToAxisAngle(aa, aa)).toBe(refAngle);
      }),
      { numRuns: 50 },
    );
  });
});

import { mat3Invert, mat3Multiply, mat3Transpose } from '@mocap/anim-loop';
import { mat3Copy, mat3Determinant, mat3Identity, mat3TransformVec3 } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { Matrix3, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { m9, mat3Arb, vec3Arb } from './util.js';

const t3 = (m: ArrayLike<number>) => new Matrix3().fromArray(Array.from(m));

describe('mat3 against three.js Matrix3', () => {
  it('multiply, transpose, invert, determinant and apply agree to 1e-12', () => {
    fc.assert(
      fc.property(mat3Arb, mat3Arb, vec3Arb(), (a, b, v) => {
        expectVec(mat3Multiply(m9(), a, b), new Matrix3().multiplyMatrices(t3(a), t3(b)).elements);
        expectVec(mat3Transpose(m9(), a), t3(a).transpose().elements, 0);
        expectVec(mat3Invert(m9(), a), t3(a).invert().elements, 1e-9);
        expect(mat3Determinant(a)).toBeCloseTo(t3(a).determinant(), 12);
        expectVec(
          mat3TransformVec3(new Float64Array(3), a, v),
          new Vector3(...v).applyMatrix3(t3(a)).toArray(),
        );
      }),
    );
  });

  it('m * m^-1 is the identity', () => {
    fc.assert(
      fc.property(mat3Arb, (a) => {
        expectVec(mat3Multiply(m9(), a, mat3Invert(m9(), a)), mat3Identity(m9()), 1e-9);
      }),
    );
  });

  it('a singular matrix throws a RangeError naming mat3Invert', () => {
    expect(() => mat3Invert(m9(), [1, 2, 3, 2, 4, 6, 0, 0, 1])).toThrow(/mat3Invert: the matrix is singular/);
  });
});

describe('mat3 aliasing (output is also an input)', () => {
  it('multiply, transpose, invert, copy and apply work in place', () => {
    fc.assert(
      fc.property(mat3Arb, mat3Arb, (a, b) => {
        const ref = mat3Multiply(m9(), a, b);
        const x = Float64Array.from(a);
        expectVec(mat3Multiply(x, x, b), ref, 0);
        const y = Float64Array.from(b);
        expectVec(mat3Multiply(y, a, y), ref, 0);
        const s = Float64Array.from(a);
        expectVec(mat3Multiply(s, s, s), mat3Multiply(m9(), a, a), 0);
        const t = Float64Array.from(a);
        expectVec(mat3Transpose(t, t), mat3Transpose(m9(), a), 0);
        const inv = Float64Array.from(a);
        expectVec(mat3Invert(inv, inv), mat3Invert(m9(), a), 0);
        const c = Float64Array.from(a);
        expectVec(mat3Copy(c, c), a, 0);
        const v = Float64Array.from(b.slice(0, 3));
        expectVec(mat3TransformVec3(v, a, v), mat3TransformVec3(new Float64Array(3), a, b.slice(0, 3)), 0);
      }),
      { numRuns: 50 },
    );
  });
});

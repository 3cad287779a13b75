import { mat4Invert, mat4ToRows } from '@mocap/anim-loop';
import {
  mat3FromQuat,
  mat4Copy,
  mat4FromRotationTranslation,
  mat4FromRows,
  mat4GetRotation,
  mat4GetTranslation,
  mat4Identity,
  mat4Multiply,
  mat4TransformPoint,
  mat4Transpose,
} from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { Matrix4, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { num, unitQuat, vec3Arb } from './util.js';

const m16 = () => new Float64Array(16);
const t4 = (m: ArrayLike<number>) => new Matrix4().fromArray(Array.from(m));
const mat4Arb = fc
  .array(num(-2, 2), { minLength: 16, maxLength: 16 })
  .filter((m) => Math.abs(t4(m).determinant()) > 0.1);

describe('mat4 against three.js Matrix4', () => {
  it('multiply, transpose and invert agree to 1e-12', () => {
    fc.assert(
      fc.property(mat4Arb, mat4Arb, (a, b) => {
        expectVec(mat4Multiply(m16(), a, b), new Matrix4().multiplyMatrices(t4(a), t4(b)).elements);
        expectVec(mat4Transpose(m16(), a), t4(a).transpose().elements, 0);
        expectVec(mat4Invert(m16(), a), t4(a).invert().elements, 1e-8);
        expectVec(mat4Multiply(m16(), a, mat4Invert(m16(), a)), mat4Identity(m16()), 1e-9);
      }),
    );
  });

  it('rigid transforms: compose, apply and split agree with three.js', () => {
    fc.assert(
      fc.property(unitQuat, vec3Arb(), vec3Arb(), (q, t, p) => {
        const r = mat3FromQuat(new Float64Array(9), q);
        const m = mat4FromRotationTranslation(m16(), r, t);
        const tm = new Matrix4().compose(new Vector3(...t), new Quaternion(...q), new Vector3(1, 1, 1));
        expectVec(m, tm.elements, 1e-12);
        expectVec(
          mat4TransformPoint(new Float64Array(3), m, p),
          new Vector3(...p).applyMatrix4(tm).toArray(),
          1e-11,
        );
        expectVec(mat4GetRotation(new Float64Array(9), m), r, 0);
        expectVec(mat4GetTranslation(new Float64Array(3), m), t, 0);
      }),
    );
  });
});

describe('mat4 rows (Blender/Python order)', () => {
  it('rows are read as rows: translation is the last column', () => {
    const rows = [
      [1, 0, 0, 0.5],
      [0, 0, -1, 0.25],
      [0, 1, 0, 1],
      [0, 0, 0, 1],
    ];
    const m = mat4FromRows(m16(), rows);
    expectVec(mat4GetTranslation(new Float64Array(3), m), [0.5, 0.25, 1], 0);
    expectVec(mat4TransformPoint(new Float64Array(3), m, [0, 1, 0]), [0.5, 0.25, 2], 0);
    expect(mat4ToRows(m)).toEqual(rows);
  });

  it('rejects a matrix that is not 4 x 4 with a RangeError naming the row', () => {
    expect(() => mat4FromRows(m16(), [[1, 0, 0, 0]])).toThrow(/expected 4 rows, got 1/);
    expect(() => mat4FromRows(m16(), [[1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])).toThrow(
      /row 0 has 1 values/,
    );
  });

  it('a singular matrix throws a RangeError naming mat4Invert', () => {
    expect(() => mat4Invert(m16(), new Float64Array(16))).toThrow(/mat4Invert: the matrix is singular/);
  });
});

describe('mat4 aliasing (output is also an input)', () => {
  it('multiply, transpose, invert, copy and transform work in place', () => {
    fc.assert(
      fc.property(mat4Arb, mat4Arb, (a, b) => {
        const ref = mat4Multiply(m16(), a, b);
        const x = Float64Array.from(a);
        expectVec(mat4Multiply(x, x, b), ref, 0);
        const y = Float64Array.from(b);
        expectVec(mat4Multiply(y, a, y), ref, 0);
        const t = Float64Array.from(a);
        expectVec(mat4Transpose(t, t), mat4Transpose(m16(), a), 0);
        const inv = Float64Array.from(a);
        expectVec(mat4Invert(inv, inv), mat4Invert(m16(), a), 0);
        const c = Float64Array.from(a);
        expectVec(mat4Copy(c, c), a, 0);
        const p = Float64Array.from(b.slice(0, 3));
        expectVec(mat4TransformPoint(p, a, p), mat4TransformPoint(new Float64Array(3), a, b.slice(0, 3)), 0);
        const r = Float64Array.from(a); // a 3 x 3 in r[0..8], a translation in r[12..14]
        const g = Float64Array.from(a);
        expectVec(mat4GetRotation(g, g).subarray(0, 9), mat4GetRotation(new Float64Array(9), a), 0);
        const h = Float64Array.from(a);
        expectVec(mat4GetTranslation(h, h).subarray(0, 3), a.slice(12, 15), 0);
        const refRt = mat4FromRotationTranslation(m16(), a.slice(0, 9), a.slice(12, 15));
        expectVec(mat4FromRotationTranslation(r, r, r.subarray(12, 15)), refRt, 0);
      }),
      { numRuns: 50 },
    );
  });
});

import { quatFromMat3, quatFromWxyz } from '@mocap/anim-loop';
import { mat3FromQuat, quatFromAxisAngle, quatToWxyz } from '@mocap/anim-loop/internal';
import { expectQuat, expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { Matrix4, Quaternion } from 'three';
import { describe, expect, it } from 'vitest';
import { HALF_TURN_AXES, m9, q4, tq, unitQuat } from './util.js';

const m3of4 = (e: number[]) => [e[0]!, e[1]!, e[2]!, e[4]!, e[5]!, e[6]!, e[8]!, e[9]!, e[10]!];

describe('quaternion <-> matrix against three.js', () => {
  it('mat3FromQuat and quatFromMat3 agree to 1e-12', () => {
    fc.assert(
      fc.property(unitQuat, (a) => {
        const m = new Matrix4().makeRotationFromQuaternion(tq(a)).elements;
        expectVec(mat3FromQuat(m9(), a), m3of4(m));
        const three = new Quaternion().setFromRotationMatrix(new Matrix4().fromArray(m)).toArray();
        expectQuat(quatFromMat3(q4(), m3of4(m)), three);
        expectQuat(quatFromMat3(q4(), m3of4(m)), a);
      }),
    );
  });
});

describe('conversion properties', () => {
  it('q and -q give the same matrix; matrix and WXYZ round trips', () => {
    fc.assert(
      fc.property(unitQuat, (q) => {
        expectVec(
          mat3FromQuat(
            m9(),
            q.map((x) => -x),
          ),
          mat3FromQuat(m9(), q),
          1e-15,
        );
        expectQuat(quatFromMat3(q4(), mat3FromQuat(m9(), q)), q, 1e-12);
        const wxyz = quatToWxyz(q4(), q);
        expectVec(wxyz, [q[3], q[0], q[1], q[2]], 0);
        expectVec(quatFromWxyz(q4(), wxyz), q, 0);
      }),
    );
  });

  it('180 degrees about any axis survives the matrix round trip', () => {
    for (const axis of HALF_TURN_AXES) {
      const q = quatFromAxisAngle(q4(), axis, Math.PI);
      expectQuat(quatFromMat3(q4(), mat3FromQuat(m9(), q)), q, 1e-12);
    }
    expect(quatFromMat3(q4(), [1, 0, 0, 0, 1, 0, 0, 0, 1])[3]).toBe(1);
  });
});

describe('conversion aliasing (output is also an input)', () => {
  it('WXYZ and matrix conversions work in place', () => {
    fc.assert(
      fc.property(unitQuat, (a) => {
        const x = Float64Array.from(a);
        expectVec(quatToWxyz(x, x), quatToWxyz(q4(), a), 0);
        const y = Float64Array.from(a);
        expectVec(quatFromWxyz(y, y), quatFromWxyz(q4(), a), 0);
        const m = mat3FromQuat(m9(), a);
        const mq = Float64Array.from(m);
        expectVec(quatFromMat3(mq, mq).subarray(0, 4), quatFromMat3(q4(), m), 0);
        const qm = new Float64Array(9);
        qm.set(a);
        expectVec(mat3FromQuat(qm, qm), m, 0);
      }),
      { numRuns: 50 },
    );
  });
});

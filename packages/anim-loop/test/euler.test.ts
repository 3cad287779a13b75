import {
  type EulerOrder,
  eulerFromMat3,
  eulerFromQuat,
  mat3FromEuler,
  mat3Multiply,
  quatFromEuler,
} from '@mocap/anim-loop';
import { EULER_ORDERS, mat3FromQuat, quatAngle, quatFromAxisAngle } from '@mocap/anim-loop/internal';
import { expectQuat, expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { Euler, Matrix4, Quaternion, type EulerOrder as ThreeOrder } from 'three';
import { describe, expect, it } from 'vitest';
import { type BlenderEulerCase, checkBlenderEuler, readFixture } from './blender-checks.js';
import { euler3, m9, num } from './util.js';

const m3of4 = (e: number[]) => [e[0]!, e[1]!, e[2]!, e[4]!, e[5]!, e[6]!, e[8]!, e[9]!, e[10]!];
// Blender names axes in the order applied; three.js names them in matrix-product order.
const threeOrder = (o: EulerOrder) => o.split('').reverse().join('') as ThreeOrder;

describe('Euler against three.js', () => {
  for (const order of EULER_ORDERS) {
    it(`${order} (three.js ${threeOrder(order)}): matrix and quaternion agree to 1e-12`, () => {
      fc.assert(
        fc.property(euler3, (e) => {
          const te = new Euler(e[0], e[1], e[2], threeOrder(order));
          expectVec(mat3FromEuler(m9(), e, order), m3of4(new Matrix4().makeRotationFromEuler(te).elements));
          expectVec(
            quatFromEuler(new Float64Array(4), e, order),
            new Quaternion().setFromEuler(te).toArray(),
          );
          // three.js returns the solution with the middle angle in [-pi/2, pi/2]; ours is the
          // smaller one: both must rebuild the same matrix.
          const m = mat3FromEuler(m9(), e, order);
          const back = eulerFromMat3(new Float64Array(3), m, order);
          expectVec(mat3FromEuler(m9(), back, order), m, 1e-12);
          const tb = new Euler().setFromRotationMatrix(
            new Matrix4().makeRotationFromEuler(te),
            threeOrder(order),
          );
          expectVec(mat3FromEuler(m9(), [tb.x, tb.y, tb.z], order), m, 1e-12);
          // Given three.js's solution as the preferred one, ours returns exactly it (away from
          // gimbal lock, where three.js's asin loses digits).
          if (Math.abs(Math.cos([tb.x, tb.y, tb.z][order.charCodeAt(1) - 88]!)) > 1e-3) {
            expectVec(
              eulerFromMat3(new Float64Array(3), m, order, [tb.x, tb.y, tb.z]),
              [tb.x, tb.y, tb.z],
              1e-12,
            );
          }
        }),
      );
    });
  }
});

describe("Euler against Blender's mathutils (python/euler_fixture.py, Blender 3.4)", () => {
  it('matrix, quaternion, to_euler and to_euler(order, compat) agree in all six modes', () => {
    const fixture = readFixture<{ cases: BlenderEulerCase[] }>(
      new URL('../fixtures/euler-blender.json', import.meta.url),
    );
    expect(new Set(fixture.cases.map((c) => c.order)).size).toBe(6);
    expect(checkBlenderEuler(fixture.cases)).toBeLessThan(2e-6);
  });
});

describe("Euler in Blender's meaning", () => {
  const rx = quatFromAxisAngle(new Float64Array(4), [1, 0, 0], 0.3);
  const ry = quatFromAxisAngle(new Float64Array(4), [0, 1, 0], -0.7);
  const rz = quatFromAxisAngle(new Float64Array(4), [0, 0, 1], 1.1);
  const R = { X: mat3FromQuat(m9(), rx), Y: mat3FromQuat(m9(), ry), Z: mat3FromQuat(m9(), rz) };
  for (const order of EULER_ORDERS) {
    it(`${order} applies ${order[0]} first: R = R${order[2]} R${order[1]} R${order[0]}`, () => {
      const [a, b, c] = order.split('') as ('X' | 'Y' | 'Z')[];
      const expected = mat3Multiply(m9(), R[c!], mat3Multiply(m9(), R[b!], R[a!]));
      expectVec(mat3FromEuler(m9(), [0.3, -0.7, 1.1], order), expected, 1e-15);
    });
  }
  it("defaults to 'XYZ'", () => {
    expectVec(mat3FromEuler(m9(), [0.3, -0.7, 1.1]), mat3FromEuler(m9(), [0.3, -0.7, 1.1], 'XYZ'), 0);
  });
  it('rejects an unknown order with a TypeError naming it', () => {
    expect(() => mat3FromEuler(m9(), [0, 0, 0], 'xyz' as EulerOrder)).toThrow(
      /Expected an Euler order.*"xyz"/,
    );
  });
});

describe('Euler round trips and solution choice', () => {
  it('angles within (-pi/2, pi/2) come back exactly', () => {
    const small = num(-1.5, 1.5);
    for (const order of EULER_ORDERS) {
      fc.assert(
        fc.property(fc.tuple(small, small, small), (e) => {
          expectVec(eulerFromMat3(new Float64Array(3), mat3FromEuler(m9(), e, order), order), e, 1e-12);
          expectVec(
            eulerFromQuat(new Float64Array(3), quatFromEuler(new Float64Array(4), e, order), order),
            e,
            1e-12,
          );
        }),
        { numRuns: 50 },
      );
    }
  });

  it('with prefer, the nearest equivalent angles come back (whole turns and the flipped solution)', () => {
    for (const order of EULER_ORDERS) {
      fc.assert(
        fc.property(
          euler3,
          fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 })),
          (e, [k1, k2]) => {
            fc.pre(Math.abs(Math.cos(e[order.charCodeAt(1) - 88]!)) > 1e-3);
            const target = [e[0] + 2 * Math.PI * k1, e[1] - 2 * Math.PI * k2, e[2] + 2 * Math.PI * k1];
            const prefer = [target[0]! + 0.01, target[1]! - 0.02, target[2]! + 0.015];
            const got = eulerFromMat3(new Float64Array(3), mat3FromEuler(m9(), e, order), order, prefer);
            expectVec(got, target, 1e-9);
          },
        ),
        { numRuns: 50 },
      );
    }
  });

  it('without prefer, picks the solution with the smaller sum of |angles|', () => {
    // (pi - 0.2, pi - 0.1, pi - 0.3) in XYZ equals (-0.2, 0.1, -0.3) + flips: the small one wins.
    const e = [Math.PI - 0.2, Math.PI - 0.1, Math.PI - 0.3];
    const got = eulerFromMat3(new Float64Array(3), mat3FromEuler(m9(), e, 'XYZ'), 'XYZ');
    expectVec(got, [-0.2, 0.1, -0.3], 1e-12);
  });
});

describe('Euler at gimbal lock', () => {
  for (const order of EULER_ORDERS) {
    it(`${order}: middle angle +-pi/2 rebuilds the matrix, third angle 0 or prefer's`, () => {
      const mid = order.charCodeAt(1) - 88; // index of the middle axis
      const last = order.charCodeAt(2) - 88;
      for (const sgn of [1, -1]) {
        const e = [0.4, 0.4, 0.4];
        e[mid] = (sgn * Math.PI) / 2;
        const m = mat3FromEuler(m9(), e, order);
        const got = eulerFromMat3(new Float64Array(3), m, order);
        expect(got[last]).toBe(0);
        expectVec(mat3FromEuler(m9(), got, order), m, 1e-12);
        const pref = eulerFromMat3(new Float64Array(3), m, order, e);
        expectVec(pref, e, 1e-12);
      }
    });
  }

  it('a track through gimbal lock stays continuous with prefer', () => {
    let prev = new Float64Array([0.2, 1.2, -0.3]);
    const q = new Float64Array(4);
    for (let t = 0; t <= 100; t++) {
      const e = [0.2 + t * 0.01, 1.2 + t * 0.008, -0.3 + t * 0.005]; // y crosses pi/2 near t = 46
      quatFromEuler(q, e, 'XYZ');
      const got = eulerFromQuat(new Float64Array(3), q, 'XYZ', prev);
      const jump = Math.max(...got.map((x, i) => Math.abs(x - prev[i]!)));
      expect(jump).toBeLessThan(0.1);
      expectQuat(quatFromEuler(new Float64Array(4), got, 'XYZ'), q, 1e-7);
      expect(quatAngle(quatFromEuler(new Float64Array(4), got, 'XYZ'), q)).toBeLessThan(1e-7);
      prev = got;
    }
  });
});

describe('Euler aliasing (output is also an input)', () => {
  it('mat3FromEuler, eulerFromMat3, quatFromEuler and eulerFromQuat work in place', () => {
    fc.assert(
      fc.property(euler3, (e) => {
        for (const order of EULER_ORDERS) {
          const m = mat3FromEuler(m9(), e, order);
          const buf = new Float64Array(9);
          buf.set(e);
          expectVec(mat3FromEuler(buf, buf, order), m, 0);
          const ref = eulerFromMat3(new Float64Array(3), m, order, e);
          const inPlace = Float64Array.from(m);
          expectVec(eulerFromMat3(inPlace, inPlace, order, e).subarray(0, 3), ref, 0);
          const q = quatFromEuler(new Float64Array(4), e, order);
          const qb = new Float64Array(4);
          qb.set(e);
          expectVec(quatFromEuler(qb, qb, order), q, 0);
          const eq = Float64Array.from(q);
          expectVec(
            eulerFromQuat(eq, eq, order).subarray(0, 3),
            eulerFromQuat(new Float64Array(3), q, order),
            0,
          );
        }
      }),
      { numRuns: 30 },
    );
  });
});

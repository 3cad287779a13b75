import { boneRestMatrix } from '@mocap/anim-loop';
import { mat3Determinant, mat4GetRotation, vecRollToMat3 } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import { describe, expect, it } from 'vitest';
import { checkAgainst, type Fixture, FLOAT32_TOL, readFixture, tolFor } from './blender-checks.js';

describe("boneRestMatrix against Blender's bone.matrix_local", () => {
  it('matches the stored fixture (axis-aligned, near -Y, near-vertical, random, a chain)', () => {
    const fixture = readFixture<Fixture>(new URL('../fixtures/bone-rest.json', import.meta.url));
    expect(fixture.bones.length).toBeGreaterThan(90);
    expect(fixture.bones.filter((b) => tolFor(b) === FLOAT32_TOL).length).toBeGreaterThan(80);
    expect(checkAgainst(fixture)).toBeLessThan(FLOAT32_TOL);
  });
});

describe('vecRollToMat3', () => {
  it('is a proper rotation whose Y axis is the bone direction', () => {
    const r = new Float64Array(9);
    for (const dir of [
      [0, 0, 1],
      [0, 1, 0],
      [1e-3, -1, 0],
      [0.3, -0.9, 0.1],
      [3, 4, 12],
    ]) {
      vecRollToMat3(r, dir, 0.9);
      const n = Math.hypot(dir[0]!, dir[1]!, dir[2]!);
      expectVec(r.subarray(3, 6), [dir[0]! / n, dir[1]! / n, dir[2]! / n], 2e-7);
      expect(mat3Determinant(r)).toBeCloseTo(1, 5);
    }
  });

  it('uses the half turn about Z for a bone within 2.5e-4 of -Y, as Blender does', () => {
    expectVec(vecRollToMat3(new Float64Array(9), [0, -2, 0], 0), [-1, 0, 0, 0, -1, 0, 0, 0, 1], 0);
    expectVec(vecRollToMat3(new Float64Array(9), [1e-5, -1, 0], 0), [-1, 0, 0, 0, -1, 0, 0, 0, 1], 0);
  });

  it('rolls about the bone axis', () => {
    const r0 = vecRollToMat3(new Float64Array(9), [0, 0, 1], 0);
    const r1 = vecRollToMat3(new Float64Array(9), [0, 0, 1], Math.PI / 2);
    // X axis turned 90 deg about +Z (the bone's Y).
    expectVec(r1.subarray(0, 3), [-r0[1]!, r0[0]!, r0[2]!], 1e-15);
  });

  it('throws a RangeError for a zero direction or coincident head and tail', () => {
    expect(() => vecRollToMat3(new Float64Array(9), [0, 0, 0], 0)).toThrow(/vecRollToMat3: bone direction/);
    expect(() => boneRestMatrix(new Float64Array(16), [1, 2, 3], [1, 2, 3], 0)).toThrow(/head and tail/);
  });

  it('works in place (output is also the direction input)', () => {
    const ref = vecRollToMat3(new Float64Array(9), [0.2, 0.5, -0.7], 0.3);
    const buf = new Float64Array(9);
    buf.set([0.2, 0.5, -0.7]);
    expectVec(vecRollToMat3(buf, buf, 0.3), ref, 0);
    const m = boneRestMatrix(new Float64Array(16), [1, 2, 3], [1.2, 2.5, 2.3], 0.3);
    const hm = new Float64Array(16);
    hm.set([1, 2, 3]);
    expectVec(boneRestMatrix(hm, hm, [1.2, 2.5, 2.3], 0.3), m, 0);
    expectVec(mat4GetRotation(new Float64Array(9), m), ref, 1e-15);
  });
});

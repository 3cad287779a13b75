import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  boneRestMatrix,
  mat3Determinant,
  mat4FromRows,
  mat4GetRotation,
  vecRollToMat3,
} from '@mocap/anim-loop';
import { describe, expect, it } from 'vitest';
import { expectVec } from './util.js';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = join(pkg, 'fixtures', 'bone-rest.json');
const SCRIPT = join(pkg, 'python', 'bone_rest_fixture.py');

interface FixtureBone {
  name: string;
  parent: string | null;
  head: number[];
  tail: number[];
  roll: number;
  matrix_local: number[][];
}
interface Fixture {
  blender: string;
  bones: FixtureBone[];
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Fixture;

/** Blender computes in float32: agreement is to float32 rounding of unit-scale numbers. */
const FLOAT32_TOL = 2e-6;
/**
 * Rolled bones near -Y: leaving edit mode, Blender recomputes each bone's roll from the
 * difference of two float32 matrices (fix_bonelist_roll), which near -Y are orthonormal only to
 * about 1e-5; the roll it keeps differs from the edit-bone roll by that much.
 */
const NEAR_NEG_Y_ROLLED_TOL = 5e-5;

function tolFor(b: FixtureBone): number {
  const d = [b.tail[0]! - b.head[0]!, b.tail[1]! - b.head[1]!, b.tail[2]! - b.head[2]!];
  const theta = 1 + d[1]! / Math.hypot(d[0]!, d[1]!, d[2]!);
  return theta < 0.05 && b.roll !== 0 ? NEAR_NEG_Y_ROLLED_TOL : FLOAT32_TOL;
}

function checkAgainst(fixture: Fixture): number {
  let worst = 0;
  const m = new Float64Array(16);
  const expected = new Float64Array(16);
  for (const b of fixture.bones) {
    boneRestMatrix(m, b.head, b.tail, b.roll);
    mat4FromRows(expected, b.matrix_local);
    const tol = tolFor(b);
    if (tol === FLOAT32_TOL)
      for (let i = 0; i < 16; i++) worst = Math.max(worst, Math.abs(m[i]! - expected[i]!));
    try {
      expectVec(m, expected, tol);
    } catch (e) {
      throw new Error(`bone ${b.name}: ${(e as Error).message}`);
    }
  }
  return worst; // over the bones held to FLOAT32_TOL
}

describe("boneRestMatrix against Blender's bone.matrix_local", () => {
  it('matches the stored fixture (axis-aligned, near -Y, near-vertical, random, a chain)', () => {
    const fixture = read(FIXTURE);
    expect(fixture.bones.length).toBeGreaterThan(90);
    expect(fixture.bones.filter((b) => tolFor(b) === FLOAT32_TOL).length).toBeGreaterThan(80);
    expect(checkAgainst(fixture)).toBeLessThan(FLOAT32_TOL);
  });

  it('matches a fresh run of the fixture script in real Blender, which matches the stored fixture', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anim-loop-bone-rest-'));
    try {
      const out = join(dir, 'bone-rest.json');
      const blender = process.env.BLENDER ?? 'blender';
      execFileSync(
        blender,
        ['-b', '--factory-startup', '--python-exit-code', '1', '--python', SCRIPT, '--', out],
        {
          timeout: 120_000,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const fresh = read(out);
      checkAgainst(fresh);
      const stored = read(FIXTURE);
      expect(fresh.bones.map((b) => b.name)).toEqual(stored.bones.map((b) => b.name));
      fresh.bones.forEach((b, i) => {
        expectVec(b.matrix_local.flat(), stored.bones[i]!.matrix_local.flat(), 1e-7);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

// Checks of our math against fixtures written by real Blender (python/*.py); shared by the
// stored-fixture tests and the test that re-runs the scripts in Blender.
import { readFileSync } from 'node:fs';
import {
  boneRestMatrix,
  type EulerOrder,
  eulerFromMat3,
  mat3FromEuler,
  quatFromEuler,
} from '@mocap/anim-loop';
import { mat4FromRows } from '@mocap/anim-loop/internal';
import { expectVec } from '@mocap/test-utils';
import { m9 } from './util.js';

/** Reads a fixture JSON file. */
export const readFixture = <T>(file: string | URL): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** One bone of fixtures/bone-rest.json. */
export interface FixtureBone {
  name: string;
  parent: string | null;
  head: number[];
  tail: number[];
  roll: number;
  matrix_local: number[][];
}
/** fixtures/bone-rest.json. */
export interface Fixture {
  blender: string;
  bones: FixtureBone[];
}

/** Blender computes in float32: agreement is to float32 rounding of unit-scale numbers. */
export const FLOAT32_TOL = 2e-6;
/**
 * Rolled bones near -Y: leaving edit mode, Blender recomputes each bone's roll from the
 * difference of two float32 matrices (fix_bonelist_roll), which near -Y are orthonormal only to
 * about 1e-5; the roll it keeps differs from the edit-bone roll by that much.
 */
const NEAR_NEG_Y_ROLLED_TOL = 5e-5;

export function tolFor(b: FixtureBone): number {
  const d = [b.tail[0]! - b.head[0]!, b.tail[1]! - b.head[1]!, b.tail[2]! - b.head[2]!];
  const theta = 1 + d[1]! / Math.hypot(d[0]!, d[1]!, d[2]!);
  return theta < 0.05 && b.roll !== 0 ? NEAR_NEG_Y_ROLLED_TOL : FLOAT32_TOL;
}

/** Checks boneRestMatrix against every bone of a fixture; returns the worst gap of the bones held to FLOAT32_TOL. */
export function checkAgainst(fixture: Fixture): number {
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

/** One case of python/euler_fixture.py: what Blender's mathutils computes. */
export interface BlenderEulerCase {
  order: EulerOrder;
  euler: number[];
  matrix: number[][];
  quat_wxyz: number[];
  to_euler: number[];
  compat: number[];
  to_euler_compat: number[];
}

/** Checks our Euler conversions against Blender's (float32: to 2e-6); returns the worst gap. */
export function checkBlenderEuler(cases: BlenderEulerCase[]): number {
  let worst = 0;
  const fromRows = (rows: number[][]) => [0, 1, 2].flatMap((c) => [0, 1, 2].map((r) => rows[r]![c]!));
  for (const c of cases) {
    const bm = fromRows(c.matrix);
    const m = mat3FromEuler(m9(), c.euler, c.order);
    const [w, x, y, z] = c.quat_wxyz as [number, number, number, number];
    const ours = [
      Array.from(m),
      Array.from(quatFromEuler(new Float64Array(4), c.euler, c.order)),
      Array.from(eulerFromMat3(new Float64Array(3), bm, c.order)),
      Array.from(eulerFromMat3(new Float64Array(3), bm, c.order, c.compat)),
    ];
    const q = ours[1]!;
    const sgn = q[0]! * x + q[1]! * y + q[2]! * z + q[3]! * w < 0 ? -1 : 1;
    const theirs = [bm, [x, y, z, w].map((v) => v * sgn), c.to_euler, c.to_euler_compat];
    ours.forEach((o, k) => {
      try {
        expectVec(o, theirs[k]!, 2e-6);
      } catch (e) {
        throw new Error(`${c.order} ${JSON.stringify(c.euler)} check ${k}: ${(e as Error).message}`);
      }
      o.forEach((v, i) => {
        worst = Math.max(worst, Math.abs(v - theirs[k]![i]!));
      });
    });
  }
  return worst;
}

// Re-runs the fixture scripts in real Blender (one process for both) and checks that Blender
// still says what the stored fixtures say, and that our math agrees with the fresh output.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectVec } from '@mocap/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BlenderEulerCase,
  checkAgainst,
  checkBlenderEuler,
  type Fixture,
  readFixture,
} from './blender-checks.js';

const pkg = fileURLToPath(new URL('..', import.meta.url));
let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'anim-loop-blender-'));
  const blender = process.env.BLENDER ?? 'blender';
  const script = (name: string) => ['--python', join(pkg, 'python', name)];
  execFileSync(
    blender,
    [
      '-b',
      '--factory-startup',
      '--python-exit-code',
      '1',
      ...script('bone_rest_fixture.py'),
      ...script('euler_fixture.py'),
      '--',
      dir,
    ],
    { timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}, 150_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('fixtures re-run in Blender', () => {
  it('bone.matrix_local: fresh output matches the stored fixture and boneRestMatrix', () => {
    const fresh = readFixture<Fixture>(join(dir, 'bone-rest.json'));
    const stored = readFixture<Fixture>(join(pkg, 'fixtures', 'bone-rest.json'));
    expect(fresh.bones.map((b) => b.name)).toEqual(stored.bones.map((b) => b.name));
    fresh.bones.forEach((b, i) => {
      expectVec(b.matrix_local.flat(), stored.bones[i]!.matrix_local.flat(), 1e-7);
    });
    checkAgainst(fresh);
  });

  it('mathutils Euler: fresh output matches the stored fixture and our Euler conversions', () => {
    type EulerFixture = { cases: BlenderEulerCase[] };
    const fresh = readFixture<EulerFixture>(join(dir, 'euler-blender.json'));
    const stored = readFixture<EulerFixture>(join(pkg, 'fixtures', 'euler-blender.json'));
    expect(fresh.cases.length).toBe(stored.cases.length);
    fresh.cases.forEach((c, i) => {
      expectVec(
        [...c.euler, ...c.matrix.flat(), ...c.to_euler_compat],
        [...stored.cases[i]!.euler, ...stored.cases[i]!.matrix.flat(), ...stored.cases[i]!.to_euler_compat],
        1e-7,
      );
    });
    checkBlenderEuler(fresh.cases);
  });
});

import {
  boneRestMatrix,
  mat3FromEuler,
  mat3Multiply,
  mat4Invert,
  mat4ToRows,
  mirrorMap,
  mirrorMotion,
  quatFromWxyz,
  sideSwapName,
} from '@mocap/anim-loop';
import {
  mat3FromQuat,
  mat4FromRotationTranslation,
  mat4GetRotation,
  mat4Multiply,
  mat4TransformPoint,
  mirrorRestError,
} from '@mocap/anim-loop/internal';
import { MotionJson } from '@mocap/layout';
import { expectVec } from '@mocap/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeMotion, wolf } from './util.js';

const { rig, creature } = wolf();
const boneNames = rig.bones.map((b) => b[0]);

describe('sideSwapName', () => {
  it.each([
    ['fpaw.L', 'fpaw.R'],
    ['arm_R', 'arm_L'],
    ['hand-l', 'hand-r'],
    ['l_arm', 'r_arm'],
    ['R.leg', 'L.leg'],
    ['LeftHand', 'RightHand'],
    ['upper_right_leg', 'upper_left_leg'],
    ['spine2', undefined],
    ['tail', undefined],
  ])('%s -> %s', (name, partner) => {
    expect(sideSwapName(name)).toBe(partner);
  });
});

describe('mirrorMap', () => {
  it("derives the wolf's partners from its bone names, the same as its creature.json map", () => {
    const derived = mirrorMap(boneNames);
    const explicit = mirrorMap(boneNames, creature.mirror);
    expect(Object.fromEntries(derived)).toEqual(Object.fromEntries(explicit));
    expect(derived.get('fupper.L')).toBe('fupper.R');
    expect(derived.get('hpaw.R')).toBe('hpaw.L');
    expect(derived.get('spine2')).toBe('spine2');
    for (const [a, b] of derived) expect(derived.get(b)).toBe(a);
  });

  it('uses an explicit map for names that carry no side marker', () => {
    const map = mirrorMap(['root', 'wingA', 'wingB'], { wingB: 'wingA' });
    expect(map.get('wingA')).toBe('wingB');
    expect(map.get('wingB')).toBe('wingA');
    expect(map.get('root')).toBe('root');
  });

  it('an asymmetric rig without a map: a clear error naming the bone without a partner', () => {
    expect(() => mirrorMap(['hips', 'arm.L', 'leg.L', 'leg.R'])).toThrow(
      /mirrorMap: bone "arm.L" has no partner \("arm.R" is not a bone\)/,
    );
  });

  it('a map pairing a bone with a non-bone, or with two partners, is an error naming them', () => {
    expect(() => mirrorMap(['a.L', 'a.R'], { 'a.L': 'b.R' })).toThrow(
      /pairs bone "a.L" with "b.R", which is not a bone/,
    );
    expect(() => mirrorMap(['x', 'y', 'z'], { x: 'y', z: 'x' })).toThrow(/pairs "x" with both "y" and "z"/);
    expect(mirrorMap(['a.L', 'a.R'], { 'knee.L': 'knee.R' }).get('a.L')).toBe('a.R'); // joint entries ignored
  });
});

describe('mirrorMotion', () => {
  const motionArb = fc.integer().map((seed) => makeMotion({ frames: 5, bones: boneNames, seed, period: 4 }));

  it('mirror(mirror(m)) == m', () => {
    fc.assert(
      fc.property(motionArb, (m) => {
        const map = mirrorMap(m.bones, creature.mirror);
        expect(mirrorMotion(mirrorMotion(m, map), map)).toEqual(m);
      }),
      { numRuns: 50 },
    );
  });

  it('keeps every other field of a motion.json, which still validates', () => {
    const m = makeMotion({ frames: 3, bones: boneNames, seed: 1, period: 4 });
    const names = Object.keys(rig.joints);
    const full = MotionJson.parse({
      ...m,
      names,
      joints: m.trans.map(() => names.map((n) => rig.joints[n]!)),
      reproj_px: { mean: 1, front: 1, side: 1, per_frame: [1, 1, 1] },
      sync: {
        paw_agreement: 1,
        height_gap_px: 0,
        lag_frames: 0,
        warped: false,
        height_gap_after_px: 0,
        swaps_fixed: { front: 0, side: 0 },
      },
    });
    const out = MotionJson.parse(mirrorMotion(full, mirrorMap(full.bones)));
    expect(out.reproj_px).toEqual(full.reproj_px);
    const j = names.indexOf('fpaw.L');
    const jr = names.indexOf('fpaw.R');
    const [x, y, z] = full.joints[0]![j]!;
    expectVec(out.joints[0]![jr]!, [-x, y, z], 0);
  });

  it('is the geometric mirror: forward kinematics of the mirrored motion = X-mirrored joints, sides swapped', () => {
    // Rest matrices of the wolf (roll 0, armature at identity), then Blender's FK:
    // pose(b) = pose(parent) * rest(parent)^-1 * rest(b) * R(euler_b); the root: R(root_quat) * rest, moved by trans.
    const B = rig.bones.length;
    const rest = rig.bones.map(([, h, t]) =>
      boneRestMatrix(new Float64Array(16), rig.joints[h]!, rig.joints[t]!, 0),
    );
    const index = new Map(boneNames.map((n, i) => [n, i]));
    const fk = (m: ReturnType<typeof makeMotion>, t: number) => {
      const pose: Float64Array[] = [];
      const heads: number[][] = [];
      const tails: number[][] = [];
      const local = new Float64Array(16);
      const r3 = new Float64Array(9);
      for (let b = 0; b < B; b++) {
        const [, h, tl, parent] = rig.bones[b]!;
        const out = new Float64Array(16);
        if (parent === null) {
          const q = quatFromWxyz(new Float64Array(4), m.root_quat[t]!);
          const rot = mat3Multiply(
            new Float64Array(9),
            mat3FromQuat(new Float64Array(9), q),
            mat4GetRotation(r3, rest[b]!),
          );
          const head = rig.joints[h]!.map((v, c) => v + m.trans[t]![c]!);
          mat4FromRotationTranslation(out, rot, head);
        } else {
          const p = index.get(parent)!;
          mat4Multiply(local, mat4Invert(new Float64Array(16), rest[p]!), rest[b]!);
          mat4Multiply(out, pose[p]!, local);
          const e = mat4FromRotationTranslation(
            new Float64Array(16),
            mat3FromEuler(r3, m.euler[t]![b]!, 'XYZ'),
            [0, 0, 0],
          );
          mat4Multiply(out, out, e);
        }
        pose.push(out);
        const len = Math.hypot(...rig.joints[tl]!.map((v, c) => v - rig.joints[h]![c]!));
        heads.push(Array.from(mat4TransformPoint(new Float64Array(3), out, [0, 0, 0])));
        tails.push(Array.from(mat4TransformPoint(new Float64Array(3), out, [0, len, 0])));
      }
      return { heads, tails };
    };
    const map = mirrorMap(boneNames, creature.mirror);
    for (const seed of [3, 4]) {
      const m = makeMotion({ frames: 2, bones: boneNames, seed, period: 7 });
      const mm = mirrorMotion(m, map);
      for (let t = 0; t < 2; t++) {
        const a = fk(m, t);
        const b = fk(mm, t);
        for (let i = 0; i < B; i++) {
          const partner = index.get(map.get(boneNames[i]!)!)!;
          const [x, y, z] = a.tails[i]!;
          expectVec(b.tails[partner]!, [-x!, y!, z!], 1e-12);
          const [hx, hy, hz] = a.heads[i]!;
          expectVec(b.heads[partner]!, [-hx!, hy!, hz!], 1e-12);
        }
      }
    }
  });
});

describe('mirrorRestError', () => {
  const restRows = (rollOf: (name: string) => number) =>
    rig.bones.map(([name, h, t]) => ({
      name,
      matrix_local: mat4ToRows(
        boneRestMatrix(new Float64Array(16), rig.joints[h]!, rig.joints[t]!, rollOf(name)),
      ),
    }));

  it("is ~0 for the wolf's rest pose (roll 0) and for mirrored rolls", () => {
    const map = mirrorMap(boneNames, creature.mirror);
    expect(
      mirrorRestError(
        restRows(() => 0),
        map,
      ).error,
    ).toBeLessThan(1e-6);
    const mirroredRolls = (n: string) => (n.endsWith('.L') ? 0.4 : n.endsWith('.R') ? -0.4 : 0);
    expect(mirrorRestError(restRows(mirroredRolls), map).error).toBeLessThan(1e-6);
  });

  it('names a bone whose roll is not mirrored', () => {
    const r = mirrorRestError(
      restRows((n) => (n === 'hpaw.L' ? 0.3 : 0)),
      mirrorMap(boneNames),
    );
    expect(['hpaw.L', 'hpaw.R']).toContain(r.bone);
    expect(r.error).toBeGreaterThan(0.2);
  });
});

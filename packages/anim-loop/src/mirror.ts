import type { MotionJson } from '@mocap/layout';

/** Every name of a rig mapped to its left/right partner (a centre name maps to itself). */
export type MirrorMap = ReadonlyMap<string, string>;

const SWAP: Record<string, string> = {
  L: 'R',
  R: 'L',
  l: 'r',
  r: 'l',
  left: 'right',
  right: 'left',
  Left: 'Right',
  Right: 'Left',
  LEFT: 'RIGHT',
  RIGHT: 'LEFT',
};

// Side markers Blender and common rigs use: fpaw.L, arm_R, hand-l, l_arm, R.leg, LeftArm, upper_left_leg.
const RULES: readonly RegExp[] = [
  /^(.*[._\- ])(L|R|l|r)$/,
  /^(L|R|l|r)([._\- ].*)$/,
  /^(.*?)(Left|Right|left|right|LEFT|RIGHT)(.*)$/,
];

/**
 * The partner a bone's name implies (`fpaw.L` -> `fpaw.R`, `l_arm` -> `r_arm`,
 * `LeftHand` -> `RightHand`), or `undefined` for a name without a side marker.
 *
 * ```ts
 * sideSwapName('hupper.L'); // 'hupper.R'
 * ```
 */
export function sideSwapName(name: string): string | undefined {
  let m = RULES[0]!.exec(name);
  if (m) return m[1]! + SWAP[m[2]!]!;
  m = RULES[1]!.exec(name);
  if (m) return SWAP[m[1]!]! + m[2]!;
  m = RULES[2]!.exec(name);
  if (m) return m[1]! + SWAP[m[2]!]! + m[3]!;
  return undefined;
}

/**
 * The left/right mirror map of a rig: `explicitMap` (creature.json `mirror`, pairs in either
 * direction) first, then partners derived from bone names ({@link sideSwapName}); names
 * without a side marker are centre bones and map to themselves. Map entries naming neither
 * bone are ignored (a creature's map may also list joints). Throws an `Error` naming the bone
 * when a sided bone has no partner (an asymmetric rig needs an explicit map), or when the
 * explicit map pairs a bone with a non-bone or with two partners.
 *
 * ```ts
 * const map = mirrorMap(rig.bones.map((b) => b.name), creature.mirror);
 * ```
 */
export function mirrorMap(
  boneNames: readonly string[],
  explicitMap?: Readonly<Record<string, string>>,
): MirrorMap {
  const names = new Set(boneNames);
  const map = new Map<string, string>();
  const pair = (a: string, b: string) => {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const had = map.get(x);
      if (had !== undefined && had !== y) {
        throw new Error(`mirrorMap: mirror map pairs "${x}" with both "${had}" and "${y}".`);
      }
      map.set(x, y);
    }
  };
  for (const [a, b] of Object.entries(explicitMap ?? {})) {
    const ha = names.has(a),
      hb = names.has(b);
    if (!ha && !hb) continue;
    if (!ha || !hb) {
      const [bone, other] = ha ? [a, b] : [b, a];
      throw new Error(`mirrorMap: mirror map pairs bone "${bone}" with "${other}", which is not a bone.`);
    }
    pair(a, b);
  }
  for (const name of boneNames) {
    if (map.has(name)) continue;
    const partner = sideSwapName(name);
    if (partner === undefined) {
      map.set(name, name);
    } else if (names.has(partner)) {
      pair(name, partner);
    } else {
      throw new Error(
        `mirrorMap: bone "${name}" has no partner ("${partner}" is not a bone); give creature.json a "mirror" map for an asymmetric rig.`,
      );
    }
  }
  return map;
}

type Mirrorable = Pick<MotionJson, 'bones' | 'trans' | 'root_quat' | 'euler'> &
  Partial<Pick<MotionJson, 'names' | 'joints'>>;

const toRecord = (map: MirrorMap | Readonly<Record<string, string>>): Record<string, string> =>
  map instanceof Map ? Object.fromEntries(map) : { ...(map as Record<string, string>) };

/**
 * A motion mirrored across the X = 0 plane (the creature's left and right swapped): each
 * bone takes its partner's Euler angles with Y and Z negated (Blender's flipped pose), the
 * root rotation `(w, x, y, z)` becomes `(w, x, -y, -z)`, root displacement and joints have X
 * negated, and joints move to their partners (derived from `map` and joint names). Every
 * other field is kept. Assumes a mirror-symmetric rest pose (partners' heads, tails and
 * rolls mirrored, as Blender's Symmetrize makes them); `mirrorMotion(mirrorMotion(m)) = m`.
 *
 * ```ts
 * const flipped = mirrorMotion(motion, mirrorMap(motion.bones, creature.mirror));
 * ```
 */
export function mirrorMotion<M extends Mirrorable>(
  motion: M,
  map: MirrorMap | Readonly<Record<string, string>>,
): M {
  const explicit = toRecord(map);
  const bones = mirrorMap(motion.bones, explicit);
  const perm = motion.bones.map((b) => {
    const i = motion.bones.indexOf(bones.get(b)!);
    if (i < 0)
      throw new Error(`mirrorMotion: the partner "${bones.get(b)}" of bone "${b}" is not in the motion.`);
    return i;
  });
  const neg = (v: number) => 0 - v; // 0 - v keeps zeros positive
  const out: M = {
    ...motion,
    trans: motion.trans.map(([x, y, z]) => [neg(x), y, z]),
    root_quat: motion.root_quat.map(([w, x, y, z]) => [w, x, neg(y), neg(z)]),
    euler: motion.euler.map((row, t) => {
      if (row.length !== perm.length) {
        throw new RangeError(`mirrorMotion: euler[${t}] has ${row.length} bones, bones has ${perm.length}.`);
      }
      return perm.map((src) => {
        const [x, y, z] = row[src]!;
        return [x, neg(y), neg(z)];
      });
    }),
  };
  if (motion.joints !== undefined && motion.names !== undefined) {
    const names = motion.names;
    const joints = mirrorMap(names, explicit);
    const jperm = names.map((n) => names.indexOf(joints.get(n)!));
    out.joints = motion.joints.map((row) =>
      jperm.map((src) => [neg(row[src]![0]), row[src]![1], row[src]![2]]),
    );
  }
  return out;
}

/** How far a rig's rest pose is from mirror-symmetric: the worst bone and its gap. */
export interface MirrorRestError {
  /** Largest gap over bones: rotation entries (unitless) or head position (metres). */
  error: number;
  /** The bone with that gap ("" for a rig with no bones). */
  bone: string;
}

/**
 * Measures the assumption {@link mirrorMotion} rests on: every bone's rest matrix
 * (`matrix_local`, Blender rows) mirrored across X = 0 with its X axis flipped (`S R D`,
 * S = D = diag(-1, 1, 1)) equals its partner's, heads mirrored likewise. Partners made by
 * Blender's Symmetrize (mirrored heads and tails, negated rolls) give about 1e-7; a bone whose
 * roll was not mirrored gives the sine of the roll mismatch.
 *
 * ```ts
 * const { error, bone } = mirrorRestError(rigInfo.bones, mirrorMap(names, creature.mirror));
 * if (error > 1e-4) throw new Error(`lora: rest pose not mirror-symmetric at bone "${bone}".`);
 * ```
 */
export function mirrorRestError(
  bones: ReadonlyArray<{ name: string; matrix_local: ArrayLike<ArrayLike<number>> }>,
  map: MirrorMap | Readonly<Record<string, string>>,
): MirrorRestError {
  const full = mirrorMap(
    bones.map((b) => b.name),
    toRecord(map),
  );
  const byName = new Map(bones.map((b) => [b.name, b.matrix_local]));
  let worst: MirrorRestError = { error: 0, bone: '' };
  for (const b of bones) {
    const m = b.matrix_local;
    const p = byName.get(full.get(b.name)!)!;
    let gap = 0;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 4; c++) {
        // (S M D)[r][c] = s_r m[r][c] d_c, with s = d = (-1, 1, 1) and d_3 = 1 for the head.
        const sign = (r === 0 ? -1 : 1) * (c === 0 ? -1 : 1);
        gap = Math.max(gap, Math.abs(sign * m[r]![c]! - p[r]![c]!));
      }
    }
    if (gap > worst.error || worst.bone === '') worst = { error: gap, bone: b.name };
  }
  return worst;
}

import { z } from 'zod';
import { Finite, LimitsDeg, Name, Vec3 } from './common.js';

/** One bone: [name, head joint, tail joint, parent bone or null]. */
export const RigBone = z.tuple([Name, Name, Name, Name.nullable()]);
/** One rig.json bone tuple. */
export type RigBone = z.infer<typeof RigBone>;

const SIDE = /([._-](l|r|left|right)|(left|right))$/i;
const SIDE_PREFIX = /^(l|r|left|right)[._-]/i;

/**
 * The stem of a bone name: its side marker removed (`fpaw.L` -> `fpaw`, `l_arm` -> `arm`), then
 * trailing digits (`spine2` -> `spine`). `limits_deg` keys may name a bone or a stem.
 */
export function boneStems(name: string): string[] {
  const side = name.replace(SIDE, '').replace(SIDE_PREFIX, '');
  const digits = side.replace(/[._-]?\d+$/, '');
  return [...new Set([name, side, digits, 'default'])];
}

/**
 * `rig.json`: the skeleton a person writes. Joints in metres (-Y forward, +X left, +Z up);
 * bones join a head joint to a tail joint; exactly one root bone (parent null), listed
 * before its children; `limits_deg` per bone, per stem (see {@link boneStems}) or `default`.
 */
export const RigJson = z
  .object({
    joints: z.record(Name, Vec3),
    bones: z.array(RigBone).min(1),
    /** Bone roll in degrees (Blender's edit-bone roll). @default 0 for every bone */
    roll_deg: z.record(Name, Finite).default({}),
    limits_deg: z.record(Name, LimitsDeg).default({}),
  })
  .strict()
  .superRefine((rig, ctx) => {
    const names = new Set<string>();
    let roots = 0;
    rig.bones.forEach(([name, head, tail, parent], i) => {
      const at = (k: number, message: string) =>
        ctx.addIssue({ code: 'custom', path: ['bones', i, k], message });
      if (names.has(name)) at(0, `duplicate bone "${name}"`);
      if (!(head in rig.joints)) at(1, `head "${head}" is not a joint`);
      if (!(tail in rig.joints)) at(2, `tail "${tail}" is not a joint`);
      if (head === tail) at(2, 'tail must differ from head');
      if (parent === null) roots++;
      else if (!names.has(parent)) at(3, `parent "${parent}" is not a bone listed before it`);
      names.add(name);
    });
    if (roots !== 1)
      ctx.addIssue({ code: 'custom', path: ['bones'], message: `needs exactly one root bone, has ${roots}` });
    const stems = new Set(rig.bones.flatMap(([n]) => boneStems(n)));
    for (const k of Object.keys(rig.limits_deg)) {
      if (!stems.has(k))
        ctx.addIssue({ code: 'custom', path: ['limits_deg', k], message: `"${k}" names no bone or stem` });
    }
    for (const k of Object.keys(rig.roll_deg)) {
      if (!names.has(k))
        ctx.addIssue({ code: 'custom', path: ['roll_deg', k], message: `"${k}" is not a bone` });
    }
  });
/** A validated rig.json. */
export type RigJson = z.output<typeof RigJson>;

/** The limits of `bone` in `rig`: by name, then stem, then `default`; undefined when none applies. */
export function limitsFor(rig: Pick<RigJson, 'limits_deg'>, bone: string): LimitsDeg | undefined {
  for (const k of boneStems(bone)) {
    const l = rig.limits_deg[k];
    if (l) return l;
  }
  return undefined;
}

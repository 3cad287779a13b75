import { z } from 'zod';
import { Layout, Rgb } from '../layout.js';
import { Finite, LimitsDeg, Name, Vec3 } from './common.js';

/** How prep_mesh turns a raw model into one at real size, facing -Y, on the ground. */
export const Prep = z
  .object({
    /** Real length of the creature along `axis`, metres. */
    length_m: z.number().positive(),
    /** Rotation about +Z applied after import, degrees, so the creature faces -Y. @default 0 */
    rotz_deg: Finite.default(0),
    /** The model axis (after the rotation) that `length_m` measures. @default 'y' */
    axis: z.enum(['x', 'y', 'z']).default('y'),
  })
  .strict();
/** A validated `prep` block. */
export type Prep = z.output<typeof Prep>;

/** One limb group painted a colour into the `legpaint` attribute, so limbs can be told apart. */
export const PaintGroup = z
  .object({
    name: Name,
    colour: Rgb,
    /** Bones whose weighted vertices take this colour. */
    bones: z.array(Name).min(1),
  })
  .strict();
/** A validated paint group. */
export type PaintGroup = z.output<typeof PaintGroup>;

/** The 3/4 showcase camera (perspective). */
export const ShowcaseCamera = z
  .object({
    location: Vec3,
    target: Vec3,
    /** Focal length, mm. @default 50 */
    lens_mm: z.number().positive().default(50),
  })
  .strict();
/** A validated showcase camera. */
export type ShowcaseCamera = z.output<typeof ShowcaseCamera>;

/**
 * `creature.json`: everything about a creature except its skeleton. The prompt words are
 * top-level fields, as in the seed.
 *
 * ```ts
 * const c = await readJsonFile('rig', 'creatures/wolf/creature.json', CreatureJson);
 * ```
 */
export const CreatureJson = z
  .object({
    /** The creature's name, e.g. "wolf". */
    name: Name,
    /** The noun a prompt uses, e.g. "timber wolf". */
    noun: Name,
    /** One phrase describing its look. */
    describe: z.string(),
    /** How its limb paint reads in words, e.g. "front legs red and blue, hind legs green and yellow". */
    colour_code: z.string(),
    /** How many creatures are in frame, in words. @default "one" */
    count: z.string().default('one'),
    /** Which flank the side view shows, in words. @default "right flank" */
    flank: z.string().default('right flank'),
    /** Its limbs in words, e.g. "four legs and a tail". */
    limbs: z.string(),
    prep: Prep,
    /** Layout overrides; anything left out takes the wolf's default. */
    layout: Layout.default(Layout.parse({})),
    paint: z.array(PaintGroup).default([]),
    /** Joints that touch the ground (the ground term and contact checks use them). */
    feet: z.array(Name).default([]),
    camera: ShowcaseCamera.optional(),
    /** Left/right bone partners (either direction); without it, derived from bone names. */
    mirror: z.record(Name, Name).optional(),
    /**
     * Euler limits (degrees) of a rig taken from the glb's skin (no rig.json), keyed as rig.json's
     * `limits_deg`: a bone, a stem or `default`. Bones none covers get wide limits.
     */
    limits_deg: z.record(Name, LimitsDeg).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    c.paint.forEach((g, i) => {
      if (seen.has(g.name))
        ctx.addIssue({ code: 'custom', path: ['paint', i, 'name'], message: 'duplicate group name' });
      seen.add(g.name);
    });
  });
/** A validated creature.json. */
export type CreatureJson = z.output<typeof CreatureJson>;

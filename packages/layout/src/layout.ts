import { z } from 'zod';

/** An sRGB colour as three 0-255 integers. */
export const Rgb = z.tuple([
  z.number().int().min(0).max(255),
  z.number().int().min(0).max(255),
  z.number().int().min(0).max(255),
]);
/** An sRGB colour as three 0-255 integers. */
export type Rgb = z.infer<typeof Rgb>;

/**
 * The studio's colours in sRGB.
 */
export const StudioColours = z
  .object({
    /** @default [128, 130, 134] */
    wall: Rgb.default([128, 130, 134]),
    /** Floor band below the ground row. @default [152, 154, 158] */
    floor: Rgb.default([152, 154, 158]),
    /** The divider between the two views. @default [24, 24, 26] */
    divider: Rgb.default([24, 24, 26]),
  })
  .strict();
/** The studio colours (sRGB). */
export type StudioColours = z.infer<typeof StudioColours>;

/** Frame height of the default (wolf) layout in metres: 1.9 m over 720 rows. */
export const DEFAULT_HEIGHT_M = 1.9;

/**
 * The one frame every stage agrees on: a `WIDTH` x `HEIGHT` image holding two orthographic views,
 * front (left, `W_FRONT` px) and side (right, `W_SIDE` px), sharing rows and scale.
 *
 * ```ts
 * const layout = Layout.parse({}); // the wolf's default
 * layout.W_FRONT; // 420
 * ```
 */
export const Layout = z
  .object({
    /** Frame width in px; must equal `W_FRONT + W_SIDE`. @default 1280 */
    WIDTH: z.number().int().positive().default(1280),
    /** Frame height in px. @default 720 */
    HEIGHT: z.number().int().positive().default(720),
    /** Width of the front view (left) in px. @default 420 */
    W_FRONT: z.number().int().positive().default(420),
    /** Width of the side view (right) in px. @default 860 */
    W_SIDE: z.number().int().positive().default(860),
    /** Image row of the ground plane z = 0 (rows grow downward). @default 640 */
    GROUND_V: z.number().default(640),
    /** Metres per pixel, the same in both views. @default 1.9 / 720 */
    M_PER_PX: z
      .number()
      .positive()
      .default(DEFAULT_HEIGHT_M / 720),
    /** World x at the centre column of the front view, metres. @default 0 */
    FRONT_CX: z.number().default(0),
    /** World y at the centre column of the side view, metres. @default 0 */
    SIDE_CY: z.number().default(0),
    /** Width of the dark divider in px, drawn over the last columns of the front view. @default 2 */
    DIVIDER_PX: z.number().int().min(0).default(2),
    /** Studio colours. */
    colours: StudioColours.default({ wall: [128, 130, 134], floor: [152, 154, 158], divider: [24, 24, 26] }),
  })
  .strict()
  .superRefine((l, ctx) => {
    if (l.W_FRONT + l.W_SIDE !== l.WIDTH) {
      ctx.addIssue({
        code: 'custom',
        path: ['W_SIDE'],
        message: `W_FRONT + W_SIDE must equal WIDTH (${l.W_FRONT} + ${l.W_SIDE} != ${l.WIDTH})`,
      });
    }
    if (l.GROUND_V < 0 || l.GROUND_V > l.HEIGHT) {
      ctx.addIssue({
        code: 'custom',
        path: ['GROUND_V'],
        message: `GROUND_V ${l.GROUND_V} is outside 0..HEIGHT`,
      });
    }
  });
/** The resolved frame layout (all fields present). */
export type Layout = z.output<typeof Layout>;
/** A layout as written in creature.json: any field may be left out. */
export type LayoutInput = z.input<typeof Layout>;

/** The default layout: the wolf's, 420 + 860 px, 1.9 m of height in frame. */
export const DEFAULT_LAYOUT: Layout = Object.freeze(Layout.parse({})) as Layout;

import { Rgb } from '@mocap/layout';
import { z } from 'zod';
import { drawLine, fillCircle } from './draw.js';
import { assertRgbImage, type RgbImage } from './image.js';

/**
 * `n` distinct, bright colours, the same for the same `n`: hues spaced by the golden angle.
 *
 * ```ts
 * const colours = jointPalette(det.names.length);
 * ```
 */
export function jointPalette(n: number): Rgb[] {
  const out: Rgb[] = [];
  for (let i = 0; i < n; i++) {
    const h = (i * 137.508) % 360;
    const s = 0.85;
    const v = i % 2 === 0 ? 1 : 0.8;
    const f = (k: number) => {
      const kk = (k + h / 60) % 6;
      return Math.round(255 * (v - v * s * Math.max(0, Math.min(kk, 4 - kk, 1))));
    };
    out.push([f(5), f(3), f(1)]);
  }
  return out;
}

/** Maps point px to image px: `x = sx * u + tx`, `y = sy * v + ty`. */
const Transform = z.tuple([z.number(), z.number(), z.number(), z.number()]);

/** Options of {@link drawKeypoints}. */
export const KeypointStyle = z
  .object({
    /** Disc radius, px. @default 4 */
    radius: z.number().positive().default(4),
    /** One colour per joint; {@link jointPalette} when left out. */
    colours: z.array(Rgb).optional(),
    /** One confidence per joint (0..1); joints below `minConf` are not drawn. */
    conf: z.custom<ArrayLike<number>>((v) => typeof v === 'object' && v !== null && 'length' in v).optional(),
    /** @default 0.1 */
    minConf: z.number().min(0).max(1).default(0.1),
    /** `[sx, sy, tx, ty]`: point px to image px. @default [1, 1, 0, 0] */
    transform: Transform.default([1, 1, 0, 0]),
  })
  .strict();
/** Options of {@link drawKeypoints}. */
export type KeypointStyle = z.input<typeof KeypointStyle>;

function checkPoints(op: string, points: ArrayLike<number>, conf: ArrayLike<number> | undefined): number {
  if (points.length % 2 !== 0)
    throw new TypeError(`${op}: expected (u, v) pairs, got ${points.length} numbers.`);
  const n = points.length / 2;
  if (conf && conf.length !== n) {
    throw new TypeError(`${op}: expected one confidence per joint (${n}), got ${conf.length}.`);
  }
  return n;
}

/**
 * Draws joints as filled discs in their colours onto `img`, in place. `points` holds `u, v`
 * pairs (J x 2, e.g. one frame of `det.frontUv`); joints that are NaN or below `minConf` are
 * skipped. Returns `img`.
 *
 * ```ts
 * drawKeypoints(frame, det.frontUv.subarray(t * J * 2, (t + 1) * J * 2), { conf: det.frontConf.subarray(t * J, (t + 1) * J) });
 * ```
 */
export function drawKeypoints(img: RgbImage, points: ArrayLike<number>, style: KeypointStyle = {}): RgbImage {
  assertRgbImage('drawKeypoints', img);
  const o = KeypointStyle.parse(style);
  const n = checkPoints('drawKeypoints', points, o.conf);
  const colours = o.colours ?? jointPalette(n);
  if (colours.length < n) {
    throw new TypeError(`drawKeypoints: colours: expected one per joint (${n}), got ${colours.length}.`);
  }
  const [sx, sy, tx, ty] = o.transform;
  for (let j = 0; j < n; j++) {
    if (o.conf && !((o.conf[j] as number) >= o.minConf)) continue;
    const u = points[2 * j] as number;
    const v = points[2 * j + 1] as number;
    fillCircle(img, sx * u + tx, sy * v + ty, o.radius, colours[j] as Rgb);
  }
  return img;
}

/** Options of {@link drawSkeleton}. */
export const SkeletonStyle = z
  .object({
    /** Line width, px. @default 2 */
    width: z.number().positive().default(2),
    /** One colour for every bone, or one per bone. @default [255, 255, 255] */
    colour: z.union([Rgb, z.array(Rgb)]).default([255, 255, 255]),
    /** One confidence per joint; a bone is drawn when both its joints reach `minConf`. */
    conf: z.custom<ArrayLike<number>>((v) => typeof v === 'object' && v !== null && 'length' in v).optional(),
    /** @default 0.1 */
    minConf: z.number().min(0).max(1).default(0.1),
    /** `[sx, sy, tx, ty]`: point px to image px. @default [1, 1, 0, 0] */
    transform: Transform.default([1, 1, 0, 0]),
  })
  .strict();
/** Options of {@link drawSkeleton}. */
export type SkeletonStyle = z.input<typeof SkeletonStyle>;

/**
 * Draws bones as lines between joint pairs onto `img`, in place. `bones` lists joint index
 * pairs into `points` (J x 2, `u, v` pairs). Returns `img`.
 *
 * ```ts
 * drawSkeleton(frame, uv, [[0, 1], [1, 2]], { colour: [255, 255, 255] });
 * ```
 */
export function drawSkeleton(
  img: RgbImage,
  points: ArrayLike<number>,
  bones: ReadonlyArray<readonly [number, number]>,
  style: SkeletonStyle = {},
): RgbImage {
  assertRgbImage('drawSkeleton', img);
  const o = SkeletonStyle.parse(style);
  const n = checkPoints('drawSkeleton', points, o.conf);
  const perBone = Array.isArray(o.colour[0]);
  if (perBone && o.colour.length < bones.length) {
    throw new TypeError(
      `drawSkeleton: colour: expected one per bone (${bones.length}), got ${o.colour.length}.`,
    );
  }
  const [sx, sy, tx, ty] = o.transform;
  bones.forEach(([a, b], k) => {
    if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && b >= 0 && a < n && b < n)) {
      throw new TypeError(
        `drawSkeleton: bones[${k}]: expected two joint indices below ${n}, got [${a}, ${b}].`,
      );
    }
    if (o.conf && !((o.conf[a] as number) >= o.minConf && (o.conf[b] as number) >= o.minConf)) return;
    const c = (perBone ? (o.colour as Rgb[])[k] : o.colour) as Rgb;
    const pa = [sx * (points[2 * a] as number) + tx, sy * (points[2 * a + 1] as number) + ty] as const;
    const pb = [sx * (points[2 * b] as number) + tx, sy * (points[2 * b + 1] as number) + ty] as const;
    drawLine(img, pa[0], pa[1], pb[0], pb[1], o.width, c);
  });
  return img;
}

/** Options of {@link drawMask}. */
export const MaskStyle = z
  .object({
    /** Opacity of the label colours, 0..1. @default 0.5 */
    alpha: z.number().min(0).max(1).default(0.5),
    /** Label 0 is background and left undrawn. @default true */
    skipZero: z.boolean().default(true),
  })
  .strict();
/** Options of {@link drawMask}. */
export type MaskStyle = z.input<typeof MaskStyle>;

/**
 * Alpha-blends a label map onto `img` in place: pixel i takes
 * `(1 - alpha) * img + alpha * palette[labels[i]]` (label 0 untouched by default). `labels`
 * has one entry per pixel, row-major. Returns `img`.
 *
 * ```ts
 * drawMask(view, paintLabels, [[0, 0, 0], [230, 40, 40], [40, 80, 230]], { alpha: 0.4 });
 * ```
 */
export function drawMask(
  img: RgbImage,
  labels: ArrayLike<number>,
  palette: readonly Rgb[],
  style: MaskStyle = {},
): RgbImage {
  assertRgbImage('drawMask', img);
  const o = MaskStyle.parse(style);
  const n = img.width * img.height;
  if (labels.length !== n) {
    throw new TypeError(
      `drawMask: labels: expected one per pixel (${img.width} x ${img.height}), got ${labels.length}.`,
    );
  }
  const a = Math.round(o.alpha * 256);
  const d = img.data;
  for (let i = 0; i < n; i++) {
    const l = labels[i] as number;
    if (l === 0 && o.skipZero) continue;
    const c = palette[l];
    if (!c)
      throw new TypeError(`drawMask: labels[${i}]: label ${l} has no palette colour (${palette.length}).`);
    for (let k = 0; k < 3; k++) {
      const p = i * 3 + k;
      d[p] = ((d[p] as number) * (256 - a) + (c[k] as number) * a + 128) >> 8;
    }
  }
  return img;
}

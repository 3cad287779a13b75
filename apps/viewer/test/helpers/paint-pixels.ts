import type { RgbaImage } from '@mocap/media';

/** A pixel's hue (degrees) and chroma (max - min channel, 0..255) from sRGB 0..255. */
function hueChroma(r: number, g: number, b: number): { hue: number; chroma: number } {
  const max = Math.max(r, g, b);
  const chroma = max - Math.min(r, g, b);
  if (chroma === 0) return { hue: 0, chroma };
  let h: number;
  if (max === r) h = ((g - b) / chroma) % 6;
  else if (max === g) h = (b - r) / chroma + 2;
  else h = (r - g) / chroma + 4;
  return { hue: (h * 60 + 360) % 360, chroma };
}

/** The classifying rule's constants (see {@link classifyPaint}). */
const PAINT_RULE = { minChroma: 70, maxHueDeg: 25 };

/**
 * The paint group a pixel shows, or -1. Lighting differs between ref.png (Blender Workbench,
 * studio light) and the viewer (three.js, ambient + one sun), so brightness is not compared; hue
 * and chroma are. The rule: a pixel is paint when its chroma (max - min sRGB channel) is at
 * least 70 of 255 (the coat and the studio are greys and browns below it) and its hue lies within
 * 25 degrees of a paint colour's hue; it is the group with the nearest hue. Pixels of alpha
 * under 128 (the viewer's transparent background) are never paint.
 */
function classifyPaint(img: RgbaImage, colours: readonly (readonly number[])[]): Int8Array {
  const hues = colours.map(([r, g, b]) => hueChroma(r as number, g as number, b as number).hue);
  const out = new Int8Array(img.width * img.height).fill(-1);
  for (let i = 0; i < out.length; i++) {
    const d = img.data;
    if ((d[i * 4 + 3] as number) < 128) continue;
    const { hue, chroma } = hueChroma(d[i * 4] as number, d[i * 4 + 1] as number, d[i * 4 + 2] as number);
    if (chroma < PAINT_RULE.minChroma) continue;
    let best = -1;
    let bestD = PAINT_RULE.maxHueDeg;
    hues.forEach((h, g) => {
      const dh = Math.min(Math.abs(hue - h), 360 - Math.abs(hue - h));
      if (dh <= bestD) {
        bestD = dh;
        best = g;
      }
    });
    out[i] = best;
  }
  return out;
}

/** What the viewer shows of ref.png's paint, per group and on the body. */
export interface PaintMatch {
  /** Per group: ref.png's pixels of that paint (the limb), and the share the viewer shows in it. */
  groups: { name: string; limb: number; shown: number; share: number }[];
  /** The viewer's creature pixels (alpha >= 128) outside every ref.png limb, and the share in paint. */
  body: { pixels: number; painted: number; share: number };
}

/** Compares the viewer's rest render (transparent background) with ref.png, pixel by pixel. */
export function matchPaint(
  ref: RgbaImage,
  viewer: RgbaImage,
  paint: readonly { name: string; colour: readonly number[] }[],
): PaintMatch {
  if (ref.width !== viewer.width || ref.height !== viewer.height) {
    throw new Error(
      `matchPaint: ref.png ${ref.width}x${ref.height}, viewer ${viewer.width}x${viewer.height}`,
    );
  }
  const colours = paint.map((g) => g.colour);
  const a = classifyPaint(ref, colours);
  const b = classifyPaint(viewer, colours);
  const groups = paint.map((g) => ({ name: g.name, limb: 0, shown: 0, share: 0 }));
  const body = { pixels: 0, painted: 0, share: 0 };
  for (let i = 0; i < a.length; i++) {
    const g = a[i] as number;
    if (g >= 0) {
      const row = groups[g] as (typeof groups)[number];
      row.limb++;
      if (b[i] === g) row.shown++;
    } else if ((viewer.data[i * 4 + 3] as number) >= 128) {
      body.pixels++;
      if ((b[i] as number) >= 0) body.painted++;
    }
  }
  for (const g of groups) g.share = g.limb ? g.shown / g.limb : 0;
  body.share = body.pixels ? body.painted / body.pixels : 0;
  return { groups, body };
}

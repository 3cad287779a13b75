import type { RgbaImage } from '@mocap/media';

/** sRGB 0..255 to linear light, per 8-bit value. */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/**
 * The chromaticity (r, g shares of linear light) of pixel `i` into out[0..1]; false for black,
 * which has none. A light's strength scales r, g, b alike, so it leaves this unchanged: ref.png's
 * Workbench studio light and the viewer's lights give one surface the same chromaticity.
 */
function chromaticity(img: RgbaImage, i: number, out: Float64Array): boolean {
  const d = img.data;
  const r = LINEAR[d[i * 4] as number] as number;
  const g = LINEAR[d[i * 4 + 1] as number] as number;
  const b = LINEAR[d[i * 4 + 2] as number] as number;
  const sum = r + g + b;
  if (sum <= 0) return false;
  out[0] = r / sum;
  out[1] = g / sum;
  return true;
}

/**
 * The paint group each pixel of `img` shows, or -1. A pixel shows paint when its chromaticity
 * lies nearer a paint colour's (creature.json) than the unpainted coat's at that pixel (`coat`:
 * the same creature rendered by the same renderer and cameras without its paint); it is the
 * nearest paint's group. So a coat of any colour (the fox's orange beside a red and a yellow
 * paint) is coat, and paint fading into the coat counts as paint up to halfway. Pixels outside
 * the creature (`mask` alpha under 128) and black ones are never paint.
 */
function classifyPaint(
  img: RgbaImage,
  coat: RgbaImage,
  mask: RgbaImage,
  colours: readonly (readonly number[])[],
): Int8Array {
  const paints = colours.map(([r, g, b]) => {
    const one: RgbaImage = { width: 1, height: 1, data: new Uint8Array([r ?? 0, g ?? 0, b ?? 0, 255]) };
    const c = new Float64Array(2);
    chromaticity(one, 0, c);
    return c;
  });
  const x = new Float64Array(2);
  const k = new Float64Array(2);
  const dist = (a: Float64Array, b: Float64Array) =>
    Math.hypot((a[0] as number) - (b[0] as number), (a[1] as number) - (b[1] as number));
  const out = new Int8Array(img.width * img.height).fill(-1);
  for (let i = 0; i < out.length; i++) {
    if ((mask.data[i * 4 + 3] as number) < 128 || (img.data[i * 4 + 3] as number) < 128) continue;
    if (!chromaticity(img, i, x) || !chromaticity(coat, i, k)) continue;
    let best = -1;
    let bestD = dist(x, k);
    paints.forEach((p, g) => {
      const d = dist(x, p);
      if (d < bestD) {
        bestD = d;
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
  /**
   * The viewer's creature pixels (alpha >= 128) more than a pixel away from every ref.png limb
   * pixel, and the share in paint; `edge`: the creature pixels beside a limb left out of it
   * (where the two renderers' edges differ by a pixel), and how many of those the viewer paints.
   */
  body: { pixels: number; painted: number; share: number; edge: number; edgePainted: number };
  /**
   * Where: a limb pixel the viewer paints right in its paint colour, wrong in black; a body pixel
   * the viewer paints in magenta, else grey (both lighter on the edge beside a limb); transparent
   * elsewhere.
   */
  map: RgbaImage;
}

/** The four renders {@link matchPaint} compares, each WIDTH x HEIGHT through the layout's cameras. */
export interface RestRenders {
  /** Blender's ref.png, and the same render of the creature rigged without paint. */
  ref: RgbaImage;
  refCoat: RgbaImage;
  /** The viewer's rest render of rigged.glb (transparent background), and its `&coat` render. */
  viewer: RgbaImage;
  viewerCoat: RgbaImage;
}

/**
 * Compares the viewer's rest render with ref.png, pixel by pixel: each renderer's pixels are
 * classified against its own unpainted render (see {@link classifyPaint}), so neither lighting
 * is compared with the other's; the creature's pixels are those of the viewer's coat render.
 */
export function matchPaint(
  r: RestRenders,
  paint: readonly { name: string; colour: readonly number[] }[],
): PaintMatch {
  for (const [name, img] of Object.entries(r)) {
    if (img.width !== r.ref.width || img.height !== r.ref.height) {
      throw new Error(
        `matchPaint: ref.png ${r.ref.width}x${r.ref.height}, ${name} ${img.width}x${img.height}`,
      );
    }
  }
  const colours = paint.map((g) => g.colour);
  const a = classifyPaint(r.ref, r.refCoat, r.viewerCoat, colours);
  const b = classifyPaint(r.viewer, r.viewerCoat, r.viewerCoat, colours);
  const viewer = r.viewer;
  const groups = paint.map((g) => ({ name: g.name, limb: 0, shown: 0, share: 0 }));
  const body = { pixels: 0, painted: 0, share: 0, edge: 0, edgePainted: 0 };
  const w = viewer.width;
  const besideLimb = (i: number) => {
    const x = i % w;
    const y = (i - x) / w;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        const yy = y + dy;
        if (xx >= 0 && yy >= 0 && xx < w && yy < viewer.height && (a[yy * w + xx] as number) >= 0)
          return true;
      }
    }
    return false;
  };
  const map: RgbaImage = { width: viewer.width, height: viewer.height, data: new Uint8Array(a.length * 4) };
  const mark = (i: number, rgb: readonly number[]) =>
    map.data.set([rgb[0] ?? 0, rgb[1] ?? 0, rgb[2] ?? 0, 255], i * 4);
  for (let i = 0; i < a.length; i++) {
    const g = a[i] as number;
    if (g >= 0) {
      const row = groups[g] as (typeof groups)[number];
      row.limb++;
      if (b[i] === g) row.shown++;
      mark(i, b[i] === g ? (colours[g] as readonly number[]) : [0, 0, 0]);
    } else if ((viewer.data[i * 4 + 3] as number) >= 128) {
      const painted = (b[i] as number) >= 0;
      if (besideLimb(i)) {
        body.edge++;
        if (painted) body.edgePainted++;
        mark(i, painted ? [255, 160, 255] : [160, 160, 160]);
        continue;
      }
      body.pixels++;
      if (painted) body.painted++;
      mark(i, painted ? [255, 0, 255] : [128, 128, 128]);
    }
  }
  for (const g of groups) g.share = g.limb ? g.shown / g.limb : 0;
  body.share = body.pixels ? body.painted / body.pixels : 0;
  return { groups, body, map };
}

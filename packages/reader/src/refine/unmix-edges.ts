import type { RgbImage } from '@mocap/media';
import type { PixelRect } from './distance-transform.js';

/** Options of {@link unmixEdges}. */
export interface UnmixOptions {
  /** Rings of outline pixels judged, one after another. @default 2 */
  passes?: number;
  /** Pixels inward at most where the creature's own colour is looked for. @default 3 */
  reach?: number;
  /** The creature's share under which an outline pixel goes back to the backdrop. @default 0.5 */
  below?: number;
  /** Least RGB distance between the creature's colour and the backdrop's to judge by. @default 24 */
  minContrast?: number;
}

/**
 * Gives back to the backdrop the outline pixels that are more backdrop than creature. A blurred
 * or chroma-subsampled clip (every H.264 clip in yuv420p) mixes the creature's colours into the
 * pixels around it, and the colour model, which knows the grey backdrop as colourless, calls a
 * pixel a fifth paint a paint pixel: the silhouette grows by a pixel or two, more where the
 * colour is strong. Here each labelled pixel (label >= 1) beside a backdrop pixel (label 0) is
 * read as a mix of the backdrop beyond it and the creature within it (the inward pixel, up to
 * `reach` away, that differs most from that backdrop), and goes back to 0 where the creature's
 * share is under a half: the outline an unblurred frame (and the refinement's rasteriser, which
 * fills a pixel whose centre is covered) would give. `labels` is changed in place, inside
 * `rects` only (default: the whole frame).
 *
 * ```ts
 * unmixEdges(labels, frame, regions);
 * ```
 */
export function unmixEdges(
  labels: Uint8Array,
  image: RgbImage,
  rects: readonly PixelRect[] | null = null,
  options: UnmixOptions = {},
): Uint8Array {
  const { width: W, height: H, data } = image;
  if (labels.length < W * H) {
    throw new RangeError(`unmixEdges: ${labels.length} labels for a ${W} x ${H} image.`);
  }
  const passes = options.passes ?? 2;
  const reach = options.reach ?? 3;
  const min2 = (options.minContrast ?? 24) ** 2;
  const below = options.below ?? 0.5;
  if (passes <= 0) return labels;
  const lin = linearLevels();
  // one pixel further in from the frame's edge than any step below reaches
  const bounds = (rects ?? [{ x0: 0, x1: W, y0: 0, y1: H }]).map((r) => ({
    x0: Math.max(reach + 1, Math.floor(r.x0)),
    x1: Math.min(W - reach - 1, Math.ceil(r.x1)),
    y0: Math.max(reach + 1, Math.floor(r.y0)),
    y1: Math.min(H - reach - 1, Math.ceil(r.y1)),
  }));
  const judge = (i: number, drop: number[]): void => {
    if (labels[i] === 0) return;
    let share = -1;
    for (let k = 0; k < 4; k++) {
      const s = k === 0 ? 1 : k === 1 ? -1 : k === 2 ? W : -W;
      if (labels[i + s] !== 0) continue;
      const a = creatureShare(labels, data, lin, i, s, reach, min2);
      if (a > share) share = a;
    }
    if (share >= 0 && share < below) drop.push(i);
  };
  let drop: number[] = [];
  // the first ring: the whole of each rectangle; later rings: around what the last one dropped
  for (const b of bounds) {
    for (let y = b.y0; y < b.y1; y++) {
      for (let i = y * W + b.x0; i < y * W + b.x1; i++) {
        // most pixels are backdrop or inside the creature: no call for them
        if (labels[i] === 0) continue;
        if (labels[i - 1] !== 0 && labels[i + 1] !== 0 && labels[i - W] !== 0 && labels[i + W] !== 0)
          continue;
        judge(i, drop);
      }
    }
  }
  for (let pass = 1; drop.length > 0; pass++) {
    for (const i of drop) labels[i] = 0;
    if (pass === passes) break;
    const next: number[] = [];
    for (const i of drop) {
      for (const j of [i + 1, i - 1, i + W, i - W]) {
        const x = j % W;
        const y = (j - x) / W;
        if (bounds.some((b) => x >= b.x0 && x < b.x1 && y >= b.y0 && y < b.y1)) judge(j, next);
      }
    }
    drop = next;
  }
  return labels;
}

/**
 * The creature's share of pixel i's colour along step s (toward a backdrop pixel): its colour
 * projected on the line from the backdrop (two steps out where that is backdrop too, else one)
 * to the creature's colour within; 1 where nothing inside stands out from the backdrop.
 */
function creatureShare(
  labels: Uint8Array,
  d: Uint8Array,
  lin: Float64Array,
  i: number,
  s: number,
  reach: number,
  min2: number,
): number {
  const b = labels[i + 2 * s] === 0 ? i + 2 * s : i + s;
  const br = lin[d[3 * b] as number] as number;
  const bg = lin[d[3 * b + 1] as number] as number;
  const bb = lin[d[3 * b + 2] as number] as number;
  let best = 0;
  let fr = 0;
  let fg = 0;
  let fb = 0;
  for (let k = 1; k <= reach; k++) {
    const j = i - k * s;
    if (labels[j] === 0) break;
    const r = (lin[d[3 * j] as number] as number) - br;
    const g = (lin[d[3 * j + 1] as number] as number) - bg;
    const bl = (lin[d[3 * j + 2] as number] as number) - bb;
    const c = r * r + g * g + bl * bl;
    if (c > best) {
      best = c;
      fr = r;
      fg = g;
      fb = bl;
    }
  }
  if (best < min2) return 1;
  const pr = (lin[d[3 * i] as number] as number) - br;
  const pg = (lin[d[3 * i + 1] as number] as number) - bg;
  const pb = (lin[d[3 * i + 2] as number] as number) - bb;
  return (pr * fr + pg * fg + pb * fb) / best;
}

let levels: Float64Array | null = null;

/** sRGB levels (0-255) in linear light, scaled to 0-255: a render mixes its edge pixels there. */
function linearLevels(): Float64Array {
  if (levels) return levels;
  levels = new Float64Array(256);
  for (let v = 0; v < 256; v++) {
    const c = v / 255;
    levels[v] = 255 * (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  }
  return levels;
}

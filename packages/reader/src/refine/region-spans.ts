import type { PixelRect } from './distance-transform.js';

/**
 * The pixels of a `width` x `height` image covered by `regions` (null: the whole image), as row
 * spans in row-major order: triples `y, x0, x1` (`[x0, x1)` on row `y`), rectangles clipped to the
 * image (fractional edges widened to whole pixels, as {@link segmentImage} does) and overlapping or
 * touching ones on a row merged. Walking these spans visits each covered pixel once, in the order
 * a full-frame row-major loop would, so a pass whose pixels outside the regions are all backdrop
 * (a segmentation made inside the same regions) gives the full-frame pass's result.
 *
 * ```ts
 * const s = regionSpans(regions, layout.WIDTH, layout.HEIGHT);
 * for (let k = 0; k < s.length; k += 3) for (let i = s[k] * w + s[k + 1]; i < s[k] * w + s[k + 2]; i++) {}
 * ```
 */
export function regionSpans(regions: readonly PixelRect[] | null, width: number, height: number): Int32Array {
  if (!regions) {
    const out = new Int32Array(3 * height);
    for (let y = 0; y < height; y++) out.set([y, 0, width], 3 * y);
    return out;
  }
  const rects = regions
    .map((r) => ({
      x0: Math.max(0, Math.floor(r.x0)),
      x1: Math.min(width, Math.ceil(r.x1)),
      y0: Math.max(0, Math.floor(r.y0)),
      y1: Math.min(height, Math.ceil(r.y1)),
    }))
    .filter((r) => r.x0 < r.x1 && r.y0 < r.y1)
    .sort((a, b) => a.x0 - b.x0);
  const out: number[] = [];
  for (let y = 0; y < height; y++) {
    let open = -1;
    let x0 = 0;
    let x1 = 0;
    for (const r of rects) {
      if (y < r.y0 || y >= r.y1) continue;
      if (open >= 0 && r.x0 <= x1) {
        x1 = Math.max(x1, r.x1);
        continue;
      }
      if (open >= 0) out.push(y, x0, x1);
      open = 1;
      x0 = r.x0;
      x1 = r.x1;
    }
    if (open >= 0) out.push(y, x0, x1);
  }
  return Int32Array.from(out);
}

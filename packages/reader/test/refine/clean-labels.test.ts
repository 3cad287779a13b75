import { cleanLabels, createRng, LABEL_BODY, LABEL_GROUP0, regionSpans } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

const W = 96;
const H = 64;

/** Labels with body blobs and paint blobs (some tiny, some fringed), zero outside `regions`. */
function labelsIn(seed: number, regions: { x0: number; x1: number; y0: number; y1: number }[]): Uint8Array {
  const rng = createRng(seed);
  const out = new Uint8Array(W * H);
  for (const r of regions) {
    for (let k = 0; k < 30; k++) {
      const cx = r.x0 + rng.uniform() * (r.x1 - r.x0);
      const cy = r.y0 + rng.uniform() * (r.y1 - r.y0);
      const rad = 1 + rng.uniform() * 6;
      const label = k % 3 === 0 ? LABEL_BODY : LABEL_GROUP0 + Math.floor(rng.uniform() * 3);
      for (let y = Math.max(r.y0, Math.floor(cy - rad)); y < Math.min(r.y1, cy + rad); y++)
        for (let x = Math.max(r.x0, Math.floor(cx - rad)); x < Math.min(r.x1, cx + rad); x++)
          if ((x - cx) ** 2 + (y - cy) ** 2 <= rad * rad || rng.uniform() < 0.05) out[y * W + x] = label;
    }
  }
  return out;
}

describe('regionSpans', () => {
  it('lists the covered pixels row by row in row-major order, merging rectangles that touch', () => {
    const s = regionSpans(
      [
        { x0: 5.5, x1: 9, y0: 1, y1: 3 },
        { x0: 0, x1: 3, y0: 2, y1: 4 },
        { x0: 9, x1: 12, y0: 2, y1: 3 },
      ],
      10,
      5,
    );
    expect(Array.from(s)).toEqual([1, 5, 9, 2, 0, 3, 2, 5, 10, 3, 0, 3]);
    expect(Array.from(regionSpans(null, 4, 2))).toEqual([0, 0, 4, 1, 0, 4]);
  });
});

describe('cleanLabels', () => {
  it('inside regions gives the full-frame result when every label outside them is backdrop', () => {
    // two views' boxes side by side (touching at x = 40), one reaching the image's edges
    const regions = [
      { x0: 0, x1: 40, y0: 0, y1: 50 },
      { x0: 40, x1: W, y0: 10, y1: H },
    ];
    for (let seed = 1; seed <= 6; seed++) {
      const labels = labelsIn(seed, regions.slice(0, seed % 2 ? 2 : 1));
      const full = cleanLabels(labels.slice(), W, H, 12);
      const boxed = cleanLabels(labels.slice(), W, H, 12, regions);
      expect(boxed).toEqual(full);
      // something was cleaned, and a second call (scratch reused) sees the same
      expect(full).not.toEqual(labels);
      expect(cleanLabels(labels.slice(), W, H, 12, regions)).toEqual(full);
    }
  });
});

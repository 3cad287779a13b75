import { cleanLabels, LABEL_BODY, LABEL_GROUP0 } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const W = 40;
const H = 30;

/** A W x H label image: backdrop, with `fill(x, y)` where it returns a label. */
function image(fill: (x: number, y: number) => number | undefined): Uint8Array {
  const l = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) l[y * W + x] = fill(x, y) ?? 0;
  return l;
}

const at = (l: Uint8Array, x: number, y: number) => l[y * W + x];

describe('cleanLabels', () => {
  it('keeps a paint patch, trims its one-pixel-wide spur and a small speck (body beside the creature, backdrop outside)', () => {
    const paint = LABEL_GROUP0;
    const labels = image((x, y) => {
      if (x >= 2 && x < 20 && y >= 2 && y < 28) {
        // a 10 x 10 paint patch with a 1 px spur, and a 2 x 2 speck, on the body
        if (x >= 5 && x < 15 && y >= 5 && y < 15) return paint;
        if (x >= 15 && x < 18 && y === 8) return paint;
        if (x >= 10 && x < 12 && y >= 20 && y < 22) return paint + 1;
        return LABEL_BODY;
      }
      // a lone paint pixel on the backdrop
      if (x === 30 && y === 15) return paint;
      return undefined;
    });
    cleanLabels(labels, W, H, 40);
    expect(at(labels, 7, 7)).toBe(paint);
    expect(at(labels, 5, 7)).toBe(paint); // an edge grows back inside the mask
    expect(at(labels, 5, 5)).toBe(LABEL_BODY); // a corner does not (a cross-shaped opening)
    // the spur: its first pixel grows back beside the patch, the rest goes
    expect(at(labels, 15, 8)).toBe(paint);
    expect(at(labels, 16, 8)).toBe(LABEL_BODY);
    expect(at(labels, 17, 8)).toBe(LABEL_BODY);
    expect(at(labels, 10, 20)).toBe(LABEL_BODY);
    expect(at(labels, 30, 15)).toBe(0);
  });

  it('drops a piece under minArea and keeps one at it, whatever was cleaned before (buffers reused)', () => {
    const patch = (side: number) =>
      image((x, y) => (x >= 3 && x < 3 + side && y >= 3 && y < 3 + side ? LABEL_GROUP0 + 1 : LABEL_BODY));
    // a big image first, so the second call reuses larger buffers than it needs
    cleanLabels(new Uint8Array(200 * 100).fill(LABEL_GROUP0), 200, 100, 40);
    // the opening takes the 7 x 7 square's four corners: 45 px
    const kept = cleanLabels(patch(7), W, H, 45);
    expect(kept.filter((l) => l === LABEL_GROUP0 + 1)).toHaveLength(45);
    const dropped = cleanLabels(patch(7), W, H, 46);
    expect(dropped.every((l) => l === LABEL_BODY)).toBe(true);
  });

  it('cleans paint in the first and last rows, and after a call that left paint elsewhere in its buffers', () => {
    // paint across the image's top rows, then a call with paint at the bottom: the second call
    // must not read the first one's marks
    const top = image((x, y) => (y < 8 && x >= 4 && x < 30 ? LABEL_GROUP0 : LABEL_BODY));
    cleanLabels(top, W, H, 40);
    // the image's edge rows are never kept (the opening needs four neighbours); the rest is
    expect(at(top, 10, 0)).toBe(LABEL_BODY);
    expect(at(top, 10, 1)).toBe(LABEL_GROUP0);
    expect(at(top, 10, 7)).toBe(LABEL_GROUP0);
    const bottom = image((x, y) => (y >= H - 8 && x >= 4 && x < 30 ? LABEL_GROUP0 : LABEL_BODY));
    const fresh = bottom.slice();
    cleanLabels(bottom, W, H, 40);
    expect(at(bottom, 10, H - 2)).toBe(LABEL_GROUP0);
    expect(at(bottom, 10, H - 1)).toBe(LABEL_BODY);
    // the same as a call on buffers sized for another image first
    cleanLabels(new Uint8Array(50 * 50).fill(LABEL_GROUP0 + 2), 50, 50, 40);
    expect(cleanLabels(fresh, W, H, 40)).toEqual(bottom);
    // no paint at all: nothing changes
    const none = image((x) => (x < 20 ? LABEL_BODY : undefined));
    expect(cleanLabels(none.slice(), W, H, 40)).toEqual(none);
  });
});

import { DEFAULT_LAYOUT } from '@mocap/layout';
import {
  faceLabels,
  inChannel,
  LABEL_BODY,
  LABEL_GROUP0,
  observeLabels,
  surfaceSamples,
} from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const L = DEFAULT_LAYOUT;

/** A frame's labels: a body rectangle in each view, paint group 0 as a leg below the front one. */
function labels() {
  const l = new Uint8Array(L.WIDTH * L.HEIGHT);
  const fill = (x0: number, x1: number, y0: number, y1: number, v: number) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) l[y * L.WIDTH + x] = v;
  };
  fill(150, 250, 300, 400, LABEL_BODY);
  fill(190, 210, 400, 600, LABEL_GROUP0);
  fill(700, 900, 300, 400, LABEL_BODY);
  return l;
}

describe('observeLabels', () => {
  it('distances per channel and view, presence, boundary points on the edges', () => {
    const o = observeLabels(labels(), L, 2, 2, 50);
    expect(o.width).toBe(640);
    expect(o.channels).toBe(3);
    expect(Array.from(o.present)).toEqual([1, 1, 1, 0, 0, 0]);
    // silhouette, front: 10 target px left of the body
    expect(o.distance[0][175 * o.width + 65]).toBeCloseTo(10, 5);
    // group 0, front: the leg starts at row 200 (target), columns 95..104; valid inside its crop
    expect(o.distance[1][180 * o.width + 100]).toBeCloseTo(20, 5);
    expect(o.distance[1][250 * o.width + 100]).toBe(0);
    for (let c = 0; c < 3; c++) expect(o.boundary[2 * c].length / 2).toBeLessThanOrEqual(50);
    const b = o.boundary[2];
    for (let k = 0; k < b.length / 2; k++) {
      const onEdge =
        Math.abs(b[2 * k] - 191) < 1.5 ||
        Math.abs(b[2 * k] - 209) < 1.5 ||
        Math.abs(b[2 * k + 1] - 401) < 1.5 ||
        Math.abs(b[2 * k + 1] - 599) < 1.5;
      expect(onEdge).toBe(true);
    }
    // the crop holds the creature and stays in its view
    expect(o.crop[0].x1).toBeLessThanOrEqual(o.sideStart);
    expect(o.crop[1].x0).toBeGreaterThanOrEqual(o.sideStart);
    // the leg's own crop: its box (95..105 x 200..300) plus a quarter of the front silhouette's 150 rows (38)
    expect(o.crop[2]).toEqual({ x0: 57, x1: 143, y0: 162, y1: 338 });
    expect(o.crop[3].x1).toBe(o.crop[3].x0);
  });

  it('reuses the buffers of a previous level', () => {
    const a = observeLabels(labels(), L, 2, 4);
    const b = observeLabels(labels(), L, 2, 4, 150, a);
    expect(b.distance[0]).toBe(a.distance[0]);
  });

  it('reads only the rectangles it is given, the same as the whole frame where every label lies in them', () => {
    const rects = [
      { x0: 140, x1: 260, y0: 290, y1: 610 },
      { x0: 690, x1: 910, y0: 290, y1: 410 },
    ];
    for (const factor of [1, 2, 3]) {
      const whole = observeLabels(labels(), L, 2, factor, 60);
      // a frame with paint just outside the rectangles first: its buffers are reused, stale labels and all
      const other = new Uint8Array(L.WIDTH * L.HEIGHT);
      for (let y = 270; y < 286; y++) other.fill(LABEL_GROUP0 + 1, y * L.WIDTH + 150, y * L.WIDTH + 250);
      const before = observeLabels(other, L, 2, factor, 60);
      const part = observeLabels(labels(), L, 2, factor, 60, before, rects);
      expect(part.crop).toEqual(whole.crop);
      expect(Array.from(part.present)).toEqual(Array.from(whole.present));
      expect(part.boundary).toEqual(whole.boundary);
      for (let c = 0; c < 3; c++)
        for (let v = 0; v < 2; v++) {
          const r = whole.crop[2 * c + v]!;
          if (!whole.present[2 * c + v]) continue;
          for (let y = r.y0; y < r.y1; y++)
            for (let x = r.x0; x < r.x1; x++)
              expect(part.distance[c]![y * whole.width + x]).toBe(whole.distance[c]![y * whole.width + x]);
        }
    }
  });

  it('names the size it expected', () => {
    expect(() => observeLabels(new Uint8Array(10), L, 2)).toThrow(
      /observeLabels: expected 1280 x 720 labels/,
    );
  });

  it('inChannel: 0 is the silhouette, 1 + g group g', () => {
    expect(inChannel(0, 0)).toBe(false);
    expect(inChannel(LABEL_BODY, 0)).toBe(true);
    expect(inChannel(LABEL_BODY, 1)).toBe(false);
    expect(inChannel(LABEL_GROUP0 + 1, 2)).toBe(true);
  });
});

describe('surfaceSamples', () => {
  it('samples each triangle with barycentric weights summing to 1 and its label', () => {
    const idx = Uint32Array.from([0, 1, 2, 2, 1, 3]);
    const fl = faceLabels(idx, Uint8Array.from([1, 1, 1, 4]));
    expect(Array.from(fl)).toEqual([1, 1]);
    for (const per of [1, 4, 7] as const) {
      const s = surfaceSamples(idx, Uint8Array.from([1, 3]), per);
      expect(s.count).toBe(2 * per);
      for (let k = 0; k < s.count; k++)
        expect(s.bary[3 * k] + s.bary[3 * k + 1] + s.bary[3 * k + 2]).toBeCloseTo(1, 12);
      expect(s.label[s.count - 1]).toBe(3);
    }
    expect(() => surfaceSamples(idx, fl, 2 as 1)).toThrow(/expected perFace 1, 4 or 7, got 2/);
  });
});

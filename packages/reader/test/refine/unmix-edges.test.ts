import { unmixEdges } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const W = 160;
const H = 100;
const WALL = [128, 130, 134];

const toLinear = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const toSrgb = (l: number) => Math.round(255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055));

/** A grey wall with a red disk (label 2) and a dark bar (label 1), each pixel by its centre. */
function sharpScene(): { data: Uint8Array; truth: Uint8Array } {
  const data = new Uint8Array(W * H * 3);
  const truth = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      let rgb = WALL;
      if ((x + 0.5 - 50) ** 2 + (y + 0.5 - 50) ** 2 < 22 ** 2) {
        rgb = [220, 40, 40];
        truth[i] = 2;
      } else if (x >= 95 && x < 135 && y >= 20 && y < 80) {
        rgb = [40, 32, 28];
        truth[i] = 1;
      }
      data.set(rgb, 3 * i);
    }
  return { data, truth };
}

/** The scene blurred in linear light by a Gaussian of `sigma` px (what a lens or a resize does). */
function blurred(data: Uint8Array, sigma: number): Uint8Array {
  const r = Math.ceil(3 * sigma);
  const k = Array.from({ length: 2 * r + 1 }, (_, j) => Math.exp(-((j - r) ** 2) / (2 * sigma * sigma)));
  const sum = k.reduce((a, b) => a + b);
  const lin = Float64Array.from(data, toLinear);
  const pass = (src: Float64Array, dx: number, dy: number) => {
    const out = new Float64Array(src.length);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++)
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (let j = -r; j <= r; j++) {
            const xx = Math.min(W - 1, Math.max(0, x + j * dx));
            const yy = Math.min(H - 1, Math.max(0, y + j * dy));
            s += (k[j + r] as number) * (src[3 * (yy * W + xx) + c] as number);
          }
          out[3 * (y * W + x) + c] = s / sum;
        }
    return out;
  };
  return Uint8Array.from(pass(pass(lin, 1, 0), 0, 1), toSrgb);
}

/** Labels as a colour model gives them on a soft frame: anything off the wall's colour is creature. */
function generous(data: Uint8Array, truth: Uint8Array): Uint8Array {
  const labels = new Uint8Array(W * H);
  for (let i = 0; i < W * H; i++) {
    const off = Math.hypot(...[0, 1, 2].map((c) => (data[3 * i + c] as number) - (WALL[c] as number)));
    if (off > 10) labels[i] = truth[i] || (i % W < 80 ? 2 : 1);
  }
  return labels;
}

const wrong = (labels: Uint8Array, truth: Uint8Array) =>
  labels.reduce((n, l, i) => n + ((l === 0) !== (truth[i] === 0) ? 1 : 0), 0);

describe('unmixEdges', () => {
  it("gives a blurred frame's outline back to the backdrop where it is mostly backdrop", () => {
    const { data, truth } = sharpScene();
    // the outlines: a circle of radius 22 and a 40 x 60 rectangle
    const perimeter = 2 * Math.PI * 22 + 200;
    for (const sigma of [1, 1.5]) {
      const soft = blurred(data, sigma);
      const labels = generous(soft, truth);
      // the labels outgrow the outline by over a pixel all round; unmixed, by under a quarter
      expect(wrong(labels, truth)).toBeGreaterThan(perimeter);
      unmixEdges(labels, { width: W, height: H, data: soft });
      expect(wrong(labels, truth)).toBeLessThan(0.25 * perimeter);
    }
  });

  it('leaves a sharp frame, and pixels outside the rectangles, as they were', () => {
    const { data, truth } = sharpScene();
    const labels = generous(data, truth);
    unmixEdges(labels, { width: W, height: H, data });
    expect(labels).toEqual(truth);
    const soft = blurred(data, 1.5);
    const before = generous(soft, truth);
    const after = unmixEdges(before.slice(), { width: W, height: H, data: soft }, [
      { x0: 0, x1: 80, y0: 0, y1: H },
    ]);
    for (let i = 0; i < W * H; i++) if (i % W >= 80) expect(after[i]).toBe(before[i]);
    expect(wrong(after, truth)).toBeLessThan(wrong(before, truth));
  });

  it('keeps an outline whose creature barely differs from the backdrop (nothing to judge by)', () => {
    const data = new Uint8Array(W * H * 3);
    const labels = new Uint8Array(W * H);
    for (let i = 0; i < W * H; i++) {
      const inside = i % W >= 40 && i % W < 80;
      data.set(inside ? [140, 140, 140] : WALL, 3 * i);
      labels[i] = inside || i % W === 39 ? 1 : 0;
    }
    const kept = unmixEdges(labels.slice(), { width: W, height: H, data });
    expect(kept).toEqual(labels);
  });

  it('names the sizes when the labels do not fit the image', () => {
    expect(() =>
      unmixEdges(new Uint8Array(10), { width: W, height: H, data: new Uint8Array(W * H * 3) }),
    ).toThrow(/10 labels for a 160 x 100 image/);
  });
});

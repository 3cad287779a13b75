import { seededRandom } from '@mocap/anim-loop';
import { boxBlur } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

function randomImage(w: number, h: number, seed: number) {
  const rng = seededRandom(seed);
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < data.length; i++) data[i] = rng.int(256);
  return { width: w, height: h, data };
}

/** The box average by its definition: every pixel's (2r + 1)^2 neighbours, edges clamped. */
function naive(img: ReturnType<typeof randomImage>, r: number, x: number, y: number, c: number): number {
  const { width: w, height: h, data } = img;
  let s = 0;
  for (let dy = -r; dy <= r; dy++)
    for (let dx = -r; dx <= r; dx++) {
      const xx = Math.min(w - 1, Math.max(0, x + dx));
      const yy = Math.min(h - 1, Math.max(0, y + dy));
      s += data[3 * (yy * w + xx) + c];
    }
  const n = (2 * r + 1) ** 2;
  return Math.floor((s + (n >> 1)) / n);
}

describe('boxBlur', () => {
  it('averages each pixel over its (2r + 1)-square, edges clamped, for radii 1-3', () => {
    const img = randomImage(23, 17, 1);
    for (const r of [1, 2, 3]) {
      const out = boxBlur({ width: 23, height: 17, data: new Uint8Array(img.data.length) }, img, r);
      for (let y = 0; y < 17; y++)
        for (let x = 0; x < 23; x++)
          for (let c = 0; c < 3; c++) expect(out.data[3 * (y * 23 + x) + c]).toBe(naive(img, r, x, y, c));
    }
  });

  it('blurs inside the rectangles only and copies the rest', () => {
    const img = randomImage(30, 20, 2);
    const rects = [
      { x0: 2, x1: 9, y0: 3, y1: 11 },
      { x0: 20.5, x1: 40, y0: -5, y1: 6 },
    ];
    const out = boxBlur({ width: 30, height: 20, data: new Uint8Array(img.data.length) }, img, 2, rects);
    const inside = (x: number, y: number) =>
      (x >= 2 && x < 9 && y >= 3 && y < 11) || (x >= 20 && x < 30 && y >= 0 && y < 6);
    for (let y = 0; y < 20; y++)
      for (let x = 0; x < 30; x++)
        for (let c = 0; c < 3; c++) {
          const i = 3 * (y * 30 + x) + c;
          expect(out.data[i]).toBe(inside(x, y) ? naive(img, 2, x, y, c) : img.data[i]);
        }
  });

  it('cuts independent noise about 2r + 1 times', () => {
    const rng = seededRandom(3);
    const w = 200;
    const h = 120;
    const data = new Uint8Array(w * h * 3);
    for (let i = 0; i < data.length; i++) data[i] = Math.round(128 + 12 * rng.normal());
    const out = boxBlur(
      { width: w, height: h, data: new Uint8Array(data.length) },
      { width: w, height: h, data },
      2,
    );
    const sd = (d: Uint8Array) => {
      let m = 0;
      for (const v of d) m += v / d.length;
      let s = 0;
      for (const v of d) s += (v - m) ** 2 / d.length;
      return Math.sqrt(s);
    };
    expect(sd(data)).toBeGreaterThan(11);
    expect(sd(out.data)).toBeGreaterThan(12 / 5 - 0.4);
    expect(sd(out.data)).toBeLessThan(12 / 5 + 0.4);
  });

  it('copies the image at radius 0 and refuses bad radii and sizes', () => {
    const img = randomImage(5, 4, 4);
    const out = boxBlur({ width: 5, height: 4, data: new Uint8Array(60) }, img, 0);
    expect(Array.from(out.data)).toEqual(Array.from(img.data));
    expect(() => boxBlur({ width: 5, height: 4, data: new Uint8Array(60) }, img, 1.5)).toThrow(/radius 1.5/);
    expect(() => boxBlur({ width: 4, height: 4, data: new Uint8Array(48) }, img, 1)).toThrow(/4 x 4.*5 x 4/);
  });
});

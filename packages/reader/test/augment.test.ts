import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { AugmentOptions, augment, NO_AUGMENT } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

const wall = DEFAULT_LAYOUT.colours.wall;

/** A grey N x N input with one white 2 x 2 dot whose centre is at (cx, cy); all backdrop except the dot. */
function dotImage(n: number, cx: number, cy: number) {
  const px = new Uint8Array(n * n * 3);
  const bg = new Uint8Array(n * n).fill(1);
  for (let i = 0; i < n * n; i++) px.set(wall, 3 * i);
  for (const [x, y] of [
    [cx - 1, cy - 1],
    [cx, cy - 1],
    [cx - 1, cy],
    [cx, cy],
  ] as const) {
    px.fill(255, 3 * (y * n + x), 3 * (y * n + x) + 3);
    bg[y * n + x] = 0;
  }
  return { px, bg };
}

function brightest(p: Float32Array, n: number): [number, number] {
  let sx = 0;
  let sy = 0;
  let sw = 0;
  for (let i = 0; i < n * n; i++) {
    const w = Math.max(0, p[3 * i]! - 0.6);
    sx += w * ((i % n) + 0.5);
    sy += w * (Math.floor(i / n) + 0.5);
    sw += w;
  }
  return [sx / sw, sy / sw];
}

describe('augment', () => {
  it('moves the joints exactly as it moves the pixels under scale and shift', () => {
    const n = 64;
    const { px, bg } = dotImage(n, 40, 20);
    const o = { ...NO_AUGMENT, scale: 0.2, shift: 0.1 };
    for (let seed = 0; seed < 5; seed++) {
      const { pixels, xy } = augment(px, bg, new Float32Array([40, 20]), n, seededRandom(seed), o, wall);
      const [x, y] = brightest(pixels, n);
      expect(Math.abs(x - xy[0]!)).toBeLessThan(0.3);
      expect(Math.abs(y - xy[1]!)).toBeLessThan(0.3);
    }
  });

  it('is the identity with every strength 0, and seeded otherwise', () => {
    const n = 16;
    const { px, bg } = dotImage(n, 8, 8);
    const same = augment(px, bg, new Float32Array([8, 8]), n, seededRandom(1), NO_AUGMENT, wall);
    expect(Array.from(same.pixels)).toEqual(Array.from(px).map((v) => expect.closeTo(v / 255, 6)));
    const o = AugmentOptions.parse({ backdrop: 1, blur: 1, compress: 1 });
    const a = augment(px, bg, new Float32Array([8, 8]), n, seededRandom(2), o, wall);
    const b = augment(px, bg, new Float32Array([8, 8]), n, seededRandom(2), o, wall);
    expect(a).toEqual(b);
    const c = augment(px, bg, new Float32Array([8, 8]), n, seededRandom(3), o, wall);
    expect(c.pixels).not.toEqual(a.pixels);
    for (const v of a.pixels) expect(v >= 0 && v <= 1).toBe(true);
  });

  it('replaces only the backdrop when only the backdrop is on', () => {
    const n = 16;
    const { px, bg } = dotImage(n, 8, 8);
    const { pixels } = augment(
      px,
      bg,
      new Float32Array([8, 8]),
      n,
      seededRandom(5),
      { ...NO_AUGMENT, backdrop: 1 },
      wall,
    );
    expect(pixels[3 * (7 * n + 7)]).toBe(1);
    let changed = 0;
    for (let i = 0; i < n * n; i++) if (bg[i] && Math.abs(pixels[3 * i]! - wall[0] / 255) > 1e-3) changed++;
    expect(changed).toBeGreaterThan(n * n * 0.9);
  });
});

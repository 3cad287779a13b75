import { seededRandom } from '@mocap/anim-loop';
import { describe, expect, it } from 'vitest';

describe('seededRandom', () => {
  // Pinned: the sequences the reader's and the solver's generators gave before they shared this one.
  it('gives the reader sequence by default', () => {
    const r = seededRandom(7);
    expect([r.next(), r.next(), r.normal(), r.normal(), r.int(10), r.uniform(-2, 3)]).toEqual([
      0.011704753153026104, 0.06195825757458806, -0.8642530248729361, -1.006366324094015, 4,
      -0.8003740704152733,
    ]);
    expect(r.permutation(6)).toEqual([2, 4, 0, 1, 5, 3]);
    const z = seededRandom(0);
    expect([z.next(), z.next()]).toEqual([0.26642920868471265, 0.0003297457005828619]);
  });

  it("gives the solver sequence with { seedMix: 'golden', normal: 'pair' }", () => {
    const s = seededRandom(1, { seedMix: 'golden', normal: 'pair' });
    expect([s.next(), s.normal(), s.normal(), s.normal(), s.uniform(-2, 3)]).toEqual([
      0.18967728852294385, 0.31246553921571174, -1.4815900750543949, 0.2229932383797073, 1.4056152508128434,
    ]);
  });

  it('repeats for a seed, and the seed matters', () => {
    const draw = (seed: number) => {
      const r = seededRandom(seed);
      return Array.from({ length: 8 }, () => r.next());
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
  });

  it('draws in range: next in [0, 1), int in [0, n), a permutation of 0..n-1', () => {
    const r = seededRandom(11);
    for (let i = 0; i < 2000; i++) {
      const u = r.next();
      expect(u >= 0 && u < 1).toBe(true);
      const k = r.int(7);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
      const x = r.uniform(-3, -1);
      expect(x >= -3 && x < -1).toBe(true);
    }
    expect(r.permutation(50).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(r.permutation(0)).toEqual([]);
  });

  for (const normal of ['cosine', 'pair'] as const) {
    it(`normal '${normal}': mean 0 and variance 1 within sampling error (20000 draws)`, () => {
      const r = seededRandom(5, { normal });
      const n = 20000;
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < n; i++) {
        const v = r.normal();
        s += v;
        s2 += v * v;
      }
      expect(Math.abs(s / n)).toBeLessThan(0.03);
      expect(Math.abs(s2 / n - 1)).toBeLessThan(0.04);
    });
  }

  it('names a misused option', () => {
    expect(() => seededRandom(1, { normal: 'polar' as 'pair' })).toThrow(
      /^seededRandom: Expected options\.normal to be valid .*, got "polar"\.$/,
    );
  });
});

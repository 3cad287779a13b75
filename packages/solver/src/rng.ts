/** A seeded pseudo-random generator (mulberry32): uniform in [0, 1) and standard normal draws. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** An integer in [0, n). */
  int(n: number): number;
}

/**
 * Creates a seeded {@link Rng}; the same seed always gives the same sequence.
 *
 * ```ts
 * const rng = createRng(1);
 * rng.normal();
 * ```
 */
export function createRng(seed: number): Rng {
  let s = (Math.floor(seed) ^ 0x9e3779b9) >>> 0;
  let spare: number | null = null;
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (n) => Math.min(n - 1, Math.floor(next() * n)),
    normal() {
      if (spare !== null) {
        const v = spare;
        spare = null;
        return v;
      }
      let u = 0;
      while (u <= 1e-300) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
  };
}

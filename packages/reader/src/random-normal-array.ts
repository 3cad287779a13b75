/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence.
 *
 * ```ts
 * const rng = createRng(7);
 * rng.uniform(); // in [0, 1)
 * ```
 */
export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number;
  /** Integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box-Muller). */
  normal(): number;
  /** A new array of the integers 0..n-1 in random order. */
  permutation(n: number): number[];
}

/** Creates a seeded {@link Rng}. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const uniform = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    uniform,
    range: (lo, hi) => lo + (hi - lo) * uniform(),
    int: (n) => Math.floor(uniform() * n),
    normal: () => {
      const u = 1 - uniform();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
    },
    permutation: (n) => {
      const p = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(uniform() * (i + 1));
        [p[i], p[j]] = [p[j]!, p[i]!];
      }
      return p;
    },
  };
}

/** A Float32Array of `n` seeded standard-normal values times `scale`. */
export function randomNormalArray(n: number, seed: number, scale = 1): Float32Array {
  const rng = createRng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * scale;
  return out;
}

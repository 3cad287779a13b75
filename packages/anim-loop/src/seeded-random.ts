import { z } from 'zod';
import { parseOptions } from './parse-options.js';

/** Options of {@link seededRandom}; defaults in the schema. */
export const SeededRandomOptions = z
  .object({
    /**
     * How the seed starts the state: `'plain'` takes `seed >>> 0`; `'golden'` XORs
     * `Math.floor(seed)` with 0x9e3779b9 first (the solver's synthetic streams keep it).
     * @default 'plain'
     */
    seedMix: z.enum(['plain', 'golden']).default('plain'),
    /**
     * The Box-Muller draw of `normal()`: `'cosine'` takes two uniforms per value (u = 1 - next())
     * and keeps the cosine branch; `'pair'` takes u = next() (redrawn while 0) and keeps the sine
     * branch for the next call.
     * @default 'cosine'
     */
    normal: z.enum(['cosine', 'pair']).default('cosine'),
  })
  .strict();
/** Options of {@link seededRandom} as given (defaults optional). */
export type SeededRandomOptions = z.input<typeof SeededRandomOptions>;

/** A seeded pseudo-random generator (mulberry32): the same seed and options, the same sequence. */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi): `lo + (hi - lo) * next()`. */
  uniform(lo: number, hi: number): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box-Muller, see {@link SeededRandomOptions}). */
  normal(): number;
  /** A new array of the integers 0..n-1 in random order (Fisher-Yates from the end). */
  permutation(n: number): number[];
}

/**
 * Creates a {@link SeededRandom}: mulberry32, 2^32 states, one 32-bit step per uniform. Every
 * random thing in the workspace draws from one of these, so a seed reproduces it.
 *
 * ```ts
 * const rng = seededRandom(7);
 * rng.next(); // in [0, 1)
 * const noise = seededRandom(1, { seedMix: 'golden', normal: 'pair' }).normal();
 * ```
 */
export function seededRandom(seed: number, options: SeededRandomOptions = {}): SeededRandom {
  const o = parseOptions('seededRandom', SeededRandomOptions, options);
  let a = o.seedMix === 'golden' ? (Math.floor(seed) ^ 0x9e3779b9) >>> 0 : seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let spare: number | null = null;
  const normal =
    o.normal === 'cosine'
      ? (): number => {
          const u = 1 - next();
          return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
        }
      : (): number => {
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
        };
  return {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    // floor(next() * n) < n: next() <= 1 - 2^-32 keeps the product below n
    int: (n) => Math.floor(next() * n),
    normal,
    permutation: (n) => {
      const p = Array.from({ length: n }, (_, i) => i);
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [p[i], p[j]] = [p[j]!, p[i]!];
      }
      return p;
    },
  };
}

import { seededRandom } from '@mocap/anim-loop';

/**
 * A Float32Array of `n` seeded standard-normal values times `scale` (the default
 * {@link seededRandom} stream of `seed`).
 *
 * ```ts
 * const w = randomNormalArray(3 * 3 * 8, 1, 0.1);
 * ```
 */
export function randomNormalArray(n: number, seed: number, scale = 1): Float32Array {
  const rng = seededRandom(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * scale;
  return out;
}

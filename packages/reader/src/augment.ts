import type { SeededRandom } from '@mocap/anim-loop';
import type { Rgb } from '@mocap/layout';
import { z } from 'zod';

/**
 * How training inputs are degraded to look like generated video. Each field's strength; 0 turns
 * that step off.
 */
export const AugmentOptions = z
  .object({
    /** Scale change, +- fraction. @default 0.1 */
    scale: z.number().min(0).max(0.5).default(0.1),
    /** Shift, +- fraction of the input side. @default 0.05 */
    shift: z.number().min(0).max(0.5).default(0.05),
    /** Probability of replacing the studio backdrop with a random one. @default 0.5 */
    backdrop: z.number().min(0).max(1).default(0.5),
    /** Colour jitter strength (gain, offset, contrast). @default 0.15 */
    colour: z.number().min(0).max(1).default(0.15),
    /** Probability of a blur. @default 0.3 */
    blur: z.number().min(0).max(1).default(0.3),
    /** Largest Gaussian noise std, in [0, 1] units. @default 0.03 */
    noise: z.number().min(0).max(0.5).default(0.03),
    /** Probability of compression-like degradation (block smoothing + quantisation). @default 0.3 */
    compress: z.number().min(0).max(1).default(0.3),
  })
  .strict();
/** Resolved augmentation options. */
export type AugmentOptions = z.output<typeof AugmentOptions>;
/** Augmentation options as written by a caller. */
export type AugmentOptionsInput = z.input<typeof AugmentOptions>;

/** Augmentation off: every strength 0. */
export const NO_AUGMENT: AugmentOptions = {
  scale: 0,
  shift: 0,
  backdrop: 0,
  colour: 0,
  blur: 0,
  noise: 0,
  compress: 0,
};

function affine(
  src: Uint8Array,
  mask: Uint8Array,
  n: number,
  s: number,
  tx: number,
  ty: number,
  fill: Rgb,
  out: Float32Array,
  outMask: Uint8Array,
): void {
  const c = n / 2;
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const sx = c + (x + 0.5 - c - tx) / s - 0.5;
      const sy = c + (y + 0.5 - c - ty) / s - 0.5;
      const o = y * n + x;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= n || y0 + 1 >= n) {
        for (let k = 0; k < 3; k++) out[3 * o + k] = fill[k]! / 255;
        outMask[o] = 1;
        continue;
      }
      const fx = sx - x0;
      const fy = sy - y0;
      const i00 = y0 * n + x0;
      for (let k = 0; k < 3; k++) {
        const a = src[3 * i00 + k]! * (1 - fx) + src[3 * (i00 + 1) + k]! * fx;
        const b = src[3 * (i00 + n) + k]! * (1 - fx) + src[3 * (i00 + n + 1) + k]! * fx;
        out[3 * o + k] = (a * (1 - fy) + b * fy) / 255;
      }
      outMask[o] = mask[Math.round(sy) * n + Math.round(sx)] ?? 1;
    }
}

function randomBackdrop(px: Float32Array, mask: Uint8Array, n: number, rng: SeededRandom, wall: Rgb): void {
  const base = wall.map((v) => v / 255 + rng.uniform(-0.15, 0.15));
  const angle = rng.uniform(0, 2 * Math.PI);
  const amp = rng.uniform(-0.1, 0.1);
  const gx = Math.cos(angle) / n;
  const gy = Math.sin(angle) / n;
  const g = 5;
  const coarse = Float32Array.from({ length: g * g * 3 }, () => rng.uniform(-0.08, 0.08));
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++) {
      const o = y * n + x;
      if (!mask[o]) continue;
      const cx = (x / n) * (g - 1);
      const cy = (y / n) * (g - 1);
      const x0 = Math.min(Math.floor(cx), g - 2);
      const y0 = Math.min(Math.floor(cy), g - 2);
      const fx = cx - x0;
      const fy = cy - y0;
      const ramp = amp * ((x - n / 2) * gx + (y - n / 2) * gy);
      for (let k = 0; k < 3; k++) {
        const at = (xx: number, yy: number) => coarse[(yy * g + xx) * 3 + k]!;
        const lf =
          (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) +
          (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
        px[3 * o + k] = base[k]! + ramp + lf;
      }
    }
}

function blur121(px: Float32Array, n: number, tmp: Float32Array): void {
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      for (let k = 0; k < 3; k++) {
        const l = px[3 * (y * n + Math.max(x - 1, 0)) + k]!;
        const r = px[3 * (y * n + Math.min(x + 1, n - 1)) + k]!;
        tmp[3 * (y * n + x) + k] = 0.25 * l + 0.5 * px[3 * (y * n + x) + k]! + 0.25 * r;
      }
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      for (let k = 0; k < 3; k++) {
        const u = tmp[3 * (Math.max(y - 1, 0) * n + x) + k]!;
        const d = tmp[3 * (Math.min(y + 1, n - 1) * n + x) + k]!;
        px[3 * (y * n + x) + k] = 0.25 * u + 0.5 * tmp[3 * (y * n + x) + k]! + 0.25 * d;
      }
}

function compress(px: Float32Array, n: number, rng: SeededRandom): void {
  const b = 4;
  const w = rng.uniform(0.1, 0.4);
  const levels = 24 + rng.int(40);
  for (let by = 0; by < n; by += b)
    for (let bx = 0; bx < n; bx += b)
      for (let k = 0; k < 3; k++) {
        let sum = 0;
        let cnt = 0;
        for (let y = by; y < Math.min(by + b, n); y++)
          for (let x = bx; x < Math.min(bx + b, n); x++) {
            sum += px[3 * (y * n + x) + k]!;
            cnt++;
          }
        const mean = sum / cnt;
        for (let y = by; y < Math.min(by + b, n); y++)
          for (let x = bx; x < Math.min(bx + b, n); x++) {
            const i = 3 * (y * n + x) + k;
            px[i] = Math.round((px[i]! * (1 - w) + mean * w) * levels) / levels;
          }
      }
}

/**
 * Makes one augmented training input from prepared pixels (N x N x 3 bytes) and their backdrop
 * mask: scale and shift (joints moved alike), random backdrop, colour jitter, blur, noise and
 * compression-like degradation, each drawn from `rng`. Returns pixels in [0, 1] and the joints in
 * input px.
 *
 * ```ts
 * const { pixels, xy } = augment(item.pixels, item.background, xyInput, 256, seededRandom(1), AugmentOptions.parse({}), wall);
 * ```
 */
export function augment(
  src: Uint8Array,
  background: Uint8Array,
  xy: Float32Array,
  n: number,
  rng: SeededRandom,
  o: AugmentOptions,
  wall: Rgb,
): { pixels: Float32Array; xy: Float32Array } {
  const px = new Float32Array(n * n * 3);
  const mask = new Uint8Array(n * n);
  const s = 1 + rng.uniform(-o.scale, o.scale);
  const tx = rng.uniform(-o.shift, o.shift) * n;
  const ty = rng.uniform(-o.shift, o.shift) * n;
  affine(src, background, n, s, tx, ty, wall, px, mask);
  const c = n / 2;
  const outXy = new Float32Array(xy.length);
  for (let j = 0; j < xy.length / 2; j++) {
    outXy[2 * j] = c + s * (xy[2 * j]! - c) + tx;
    outXy[2 * j + 1] = c + s * (xy[2 * j + 1]! - c) + ty;
  }
  if (rng.next() < o.backdrop) randomBackdrop(px, mask, n, rng, wall);
  if (o.colour > 0) {
    const contrast = 1 + rng.uniform(-o.colour, o.colour);
    const gain = [0, 1, 2].map(() => 1 + rng.uniform(-o.colour, o.colour) * 0.5);
    const offset = rng.uniform(-o.colour, o.colour) * 0.5;
    for (let i = 0; i < px.length; i++) px[i] = (px[i]! - 0.5) * contrast * gain[i % 3]! + 0.5 + offset;
  }
  if (rng.next() < o.blur) {
    const tmp = new Float32Array(px.length);
    const times = 1 + rng.int(2);
    for (let t = 0; t < times; t++) blur121(px, n, tmp);
  }
  if (o.noise > 0) {
    const std = rng.uniform(0, o.noise);
    for (let i = 0; i < px.length; i++) px[i]! += rng.normal() * std;
  }
  if (rng.next() < o.compress) compress(px, n, rng);
  for (let i = 0; i < px.length; i++) px[i] = Math.min(1, Math.max(0, px[i]!));
  return { pixels: px, xy: outXy };
}

import { type SeededRandom, seededRandom } from '@mocap/anim-loop';
import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { z } from 'zod';
import type { BackdropField } from './backdrop-field.js';
import { backdropColours, backdropGains } from './backdrop-gains.js';
import type { PixelRect } from './distance-transform.js';
import { pixelRects } from './pixel-rects.js';

/** Options of {@link fitColourModel}; defaults in the schema. */
export const ColourModelOptions = z
  .object({
    /** Gaussian components per class (k-means, then one Gaussian per cluster). @default 3 */
    components: z.number().int().min(1).max(8).default(3),
    /** Pixels drawn per class over all training images. @default 6000 */
    samplesPerClass: z.number().int().min(50).default(6000),
    /** Global colour shifts applied to each drawn pixel set while fitting. @default 6 */
    augmentations: z.number().int().min(1).default(6),
    /** Per-channel gain jitter (relative) of the shifts. @default 0.12 */
    gainJitter: z.number().min(0).max(0.5).default(0.12),
    /** Gamma jitter of the shifts (gamma in 1 +- this). @default 0.15 */
    gammaJitter: z.number().min(0).max(0.5).default(0.15),
    /** Pixel noise of the shifts, 0-255 units (standard deviation). @default 3 */
    noise: z.number().min(0).default(3),
    /** Bits per channel of the lookup table (6: 64^3 bins). @default 6 */
    lutBits: z.number().int().min(4).max(7).default(6),
    /** Seed of the sampling and the shifts. @default 0 */
    seed: z.number().int().default(0),
    /**
     * The paint groups' RGB colours (class 2 + g), e.g. creature.json's `paint[].colour`: a group
     * the training images do not show (a leg hidden behind another in ref.png) is learnt from
     * the most-shown painted group's pixels recoloured by the ratio of the two paints, so its
     * colour is still told apart when a clip shows it. @default none
     */
    paintColours: z.array(z.tuple([z.number(), z.number(), z.number()]).nullable()).optional(),
    /**
     * A paint group with fewer labelled pixels than this is learnt from its colour (with
     * `paintColours`): a sliver of a leg mostly hidden behind another is mostly outline, whose
     * pixels blend into their neighbours' colours (docs/benchmarks.md, the fox). @default 1000
     */
    minPaintPixels: z.number().int().min(0).default(1000),
  })
  .strict();
/** Options of {@link fitColourModel} as passed in. */
export type ColourModelOptions = z.input<typeof ColourModelOptions>;

/** One labelled training image: a layout frame and its per-pixel labels (0 backdrop, 1 body, 2+ paint groups). */
export interface LabelledImage {
  image: RgbImage;
  labels: Uint8Array;
}

/**
 * A per-pixel colour classifier: Gaussians per class in a log-chroma + log-intensity space of
 * backdrop-normalised RGB, baked into a lookup table over quantised RGB.
 */
export interface ColourModel {
  classes: number;
  bits: number;
  /** Class per quantised, backdrop-normalised RGB bin. */
  lut: Uint8Array;
  /** The backdrop colours the model was fitted against (wall RGB, floor RGB). */
  reference: Float64Array;
}

const K = 8;

function feature(out: Float64Array, o: number, r: number, g: number, b: number): void {
  out[o] = Math.log((r + K) / (g + K));
  out[o + 1] = Math.log((b + K) / (g + K));
  out[o + 2] = Math.log((r + g + b) / 3 + K);
}

/**
 * Fits a {@link ColourModel} to labelled frames (e.g. Blender renders with their label masks from
 * {@link rasterizeViews}). Every drawn pixel set is seen under several global colour shifts
 * (per-channel gain, gamma, noise), each normalised against its own shifted backdrop as
 * {@link segmentImage} will do, so the model learns what normalisation leaves of video drift.
 *
 * ```ts
 * const model = fitColourModel([{ image, labels }], layout, { seed: 1 });
 * ```
 */
export function fitColourModel(
  samples: readonly LabelledImage[],
  layout: Layout,
  options: ColourModelOptions = {},
): ColourModel {
  const o = ColourModelOptions.parse(options);
  const rng = seededRandom(o.seed);
  let classes = 0;
  const backdrops = samples.map((s) => backdropColours(s.image, layout));
  const reference = new Float64Array(6);
  for (const b of backdrops) for (let k = 0; k < 6; k++) reference[k] += b[k] / samples.length;
  samples.forEach((s, i) => {
    if (s.labels.length !== s.image.width * s.image.height) {
      throw new RangeError(
        `fitColourModel: samples[${i}].labels: ${s.labels.length} labels for a ${s.image.width} x ${s.image.height} image.`,
      );
    }
    for (const l of s.labels) classes = Math.max(classes, l + 1);
  });
  const paint = o.paintColours ?? [];
  classes = Math.max(classes, paint.length > 0 ? 2 + paint.length : 0);
  const counts = new Float64Array(classes);
  for (const s of samples) for (const l of s.labels) counts[l] = (counts[l] as number) + 1;
  const stand = standIn(counts, paint, o.minPaintPixels);
  const comps: Comp[] = [];
  for (let c = 0; c < classes; c++) {
    const from = stand[c] ?? c;
    const picks = drawPixels(samples, from, o.samplesPerClass, rng);
    if (!picks.length) continue;
    // Per-channel factor from the stand-in's paint to this class's (1 when the class shows itself).
    const tint = [0, 1, 2].map((ch) =>
      from === c ? 1 : (paint[c - 2]![ch]! + 1) / (paint[from - 2]![ch]! + 1),
    );
    const feats = new Float64Array(picks.length * o.augmentations * 3);
    let n = 0;
    for (let a = 0; a < o.augmentations; a++) {
      const shift = a === 0 ? null : drawShift(rng, o);
      const gains = backdrops.map((b) =>
        backdropGains(
          new Float64Array(3),
          b.map((v, k) => applyShift(v, k % 3, shift, rng, 0)),
          b,
        ),
      );
      for (const p of picks) {
        const img = samples[p.sample].image;
        const g = gains[p.sample];
        const px: number[] = [0, 0, 0];
        for (let ch = 0; ch < 3; ch++) {
          const own = Math.min(255, img.data[3 * p.pixel + ch] * tint[ch]!);
          const v = applyShift(own, ch, shift, rng, o.noise);
          px[ch] = Math.min(255, v * g[ch]);
        }
        feature(feats, 3 * n++, px[0], px[1], px[2]);
      }
    }
    for (const comp of fitMixture(feats, n, o.components, rng)) comps.push({ ...comp, cls: c });
  }
  return { classes, bits: o.lutBits, lut: bakeLut(comps, o.lutBits), reference };
}

/**
 * For each paint class shown by fewer than `min` labelled pixels and with a known colour, the
 * paint class to learn it from: the most-shown one with a known colour (none: it stays unlearnt).
 */
function standIn(
  counts: Float64Array,
  paint: readonly ([number, number, number] | null)[],
  min: number,
): (number | undefined)[] {
  const out: (number | undefined)[] = [];
  let best = -1;
  paint.forEach((p, g) => {
    if (
      p &&
      (counts[2 + g] as number) >= min &&
      (best < 0 || (counts[2 + g] as number) > (counts[best] as number))
    )
      best = 2 + g;
  });
  paint.forEach((p, g) => {
    if (p && (counts[2 + g] as number) < min && best >= 0) out[2 + g] = best;
  });
  return out;
}

interface Shift {
  gain: number[];
  gamma: number;
}

function drawShift(rng: SeededRandom, o: z.output<typeof ColourModelOptions>): Shift {
  return {
    gain: [0, 1, 2].map(() => 1 + rng.uniform(-o.gainJitter, o.gainJitter)),
    gamma: 1 + rng.uniform(-o.gammaJitter, o.gammaJitter),
  };
}

function applyShift(v: number, ch: number, shift: Shift | null, rng: SeededRandom, noise: number): number {
  if (!shift) return v;
  const x = 255 * (v / 255) ** shift.gamma * shift.gain[ch] + noise * rng.normal();
  return Math.min(255, Math.max(0, x));
}

interface Pick {
  sample: number;
  pixel: number;
}

function drawPixels(
  samples: readonly LabelledImage[],
  cls: number,
  total: number,
  rng: SeededRandom,
): Pick[] {
  const out: Pick[] = [];
  const per = Math.ceil(total / samples.length);
  samples.forEach((s, si) => {
    const idx: number[] = [];
    for (let i = 0; i < s.labels.length; i++) if (s.labels[i] === cls) idx.push(i);
    if (!idx.length) return;
    for (let k = 0; k < per; k++) out.push({ sample: si, pixel: idx[rng.int(idx.length)] });
  });
  return out;
}

interface Comp {
  cls: number;
  mean: Float64Array;
  /** Inverse covariance, row-major 3 x 3. */
  inv: Float64Array;
  /** log(weight) - 0.5 log det(cov). */
  logNorm: number;
}

/** k-means (seeded, k-means++ start) then one regularised Gaussian per cluster. */
function fitMixture(f: Float64Array, n: number, k: number, rng: SeededRandom): Omit<Comp, 'cls'>[] {
  k = Math.min(k, n);
  const centres = new Float64Array(k * 3);
  const first = rng.int(n);
  for (let d = 0; d < 3; d++) centres[d] = f[3 * first + d];
  const dist = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      dist[i] = Math.min(dist[i], sq(f, 3 * i, centres, 3 * (c - 1)));
      total += dist[i];
    }
    let r = rng.next() * total;
    let pick = n - 1;
    for (let i = 0; i < n; i++) {
      r -= dist[i];
      if (r <= 0) {
        pick = i;
        break;
      }
    }
    for (let d = 0; d < 3; d++) centres[3 * c + d] = f[3 * pick + d];
  }
  const assign = new Int32Array(n);
  for (let it = 0; it < 15; it++) {
    for (let i = 0; i < n; i++) {
      let best = 0;
      for (let c = 1; c < k; c++)
        if (sq(f, 3 * i, centres, 3 * c) < sq(f, 3 * i, centres, 3 * best)) best = c;
      assign[i] = best;
    }
    const sums = new Float64Array(k * 4);
    for (let i = 0; i < n; i++) {
      const c = assign[i];
      for (let d = 0; d < 3; d++) sums[4 * c + d] += f[3 * i + d];
      sums[4 * c + 3]++;
    }
    for (let c = 0; c < k; c++)
      if (sums[4 * c + 3] > 0)
        for (let d = 0; d < 3; d++) centres[3 * c + d] = sums[4 * c + d] / sums[4 * c + 3];
  }
  const out: Omit<Comp, 'cls'>[] = [];
  for (let c = 0; c < k; c++) {
    const cov = new Float64Array(9);
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (assign[i] !== c) continue;
      m++;
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          cov[3 * a + b] += (f[3 * i + a] - centres[3 * c + a]) * (f[3 * i + b] - centres[3 * c + b]);
        }
      }
    }
    if (m < 4) continue;
    for (let j = 0; j < 9; j++) cov[j] = cov[j] / m + (j % 4 === 0 ? 4e-4 : 0);
    const { inv, det } = invert3(cov);
    out.push({ mean: centres.slice(3 * c, 3 * c + 3), inv, logNorm: Math.log(m / n) - 0.5 * Math.log(det) });
  }
  return out;
}

function sq(a: Float64Array, ao: number, b: Float64Array, bo: number): number {
  const x = a[ao] - b[bo];
  const y = a[ao + 1] - b[bo + 1];
  const z = a[ao + 2] - b[bo + 2];
  return x * x + y * y + z * z;
}

function invert3(m: Float64Array): { inv: Float64Array; det: number } {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  const inv = Float64Array.from([
    A,
    -(b * i - c * h),
    b * f - c * e,
    B,
    a * i - c * g,
    -(a * f - c * d),
    C,
    -(a * h - b * g),
    a * e - b * d,
  ]).map((v) => v / det);
  return { inv, det };
}

function bakeLut(comps: Comp[], bits: number): Uint8Array {
  const size = 1 << bits;
  const step = 256 / size;
  const lut = new Uint8Array(size * size * size);
  const x = new Float64Array(3);
  for (let r = 0; r < size; r++) {
    for (let g = 0; g < size; g++) {
      for (let b = 0; b < size; b++) {
        feature(x, 0, (r + 0.5) * step, (g + 0.5) * step, (b + 0.5) * step);
        let best = 0;
        let bestScore = Number.NEGATIVE_INFINITY;
        for (const c of comps) {
          const d0 = x[0] - c.mean[0];
          const d1 = x[1] - c.mean[1];
          const d2 = x[2] - c.mean[2];
          const q =
            d0 * (c.inv[0] * d0 + c.inv[1] * d1 + c.inv[2] * d2) +
            d1 * (c.inv[3] * d0 + c.inv[4] * d1 + c.inv[5] * d2) +
            d2 * (c.inv[6] * d0 + c.inv[7] * d1 + c.inv[8] * d2);
          const score = c.logNorm - 0.5 * q;
          if (score > bestScore) {
            bestScore = score;
            best = c.cls;
          }
        }
        lut[(r * size + g) * size + b] = best;
      }
    }
  }
  return lut;
}

/**
 * Labels every pixel of a layout frame with a {@link ColourModel}: the frame's colours are first
 * divided by its backdrop gains against the model's reference backdrop ({@link backdropGains};
 * pass `gains` to override, or a {@link BackdropField} for light that is uneven across the frame),
 * then looked up. With `regions` (e.g. the previous frame's projected
 * creature, grown by a margin) only those rectangles are classified and every other pixel is
 * backdrop (0). Writes `out` (one label per pixel) and returns it.
 *
 * ```ts
 * const labels = segmentImage(new Uint8Array(1280 * 720), model, frame, layout);
 * ```
 */
export function segmentImage(
  out: Uint8Array,
  model: ColourModel,
  image: RgbImage,
  layout: Layout,
  gains: ArrayLike<number> | BackdropField | null = null,
  regions: readonly PixelRect[] | null = null,
): Uint8Array {
  const w = image.width;
  const n = w * image.height;
  if (out.length < n)
    throw new RangeError(`segmentImage: expected an output of ${n} labels, got ${out.length}.`);
  const field = gains && 'block' in gains ? gains : null;
  const gn =
    (field ? null : (gains as ArrayLike<number> | null)) ??
    backdropGains(new Float64Array(3), backdropColours(image, layout), model.reference);
  const shift = 8 - model.bits;
  const size = 1 << model.bits;
  const gr = gn[0];
  const gg = gn[1];
  const gb = gn[2];
  const d = image.data;
  const lut = model.lut;
  if (regions) out.fill(0, 0, n);
  for (const { x0, x1, y0, y1 } of pixelRects(regions, w, image.height)) {
    if (field) {
      labelWithField(out, lut, size, shift, field, d, w, x0, x1, y0, y1);
      continue;
    }
    for (let y = y0; y < y1; y++) {
      for (let i = y * w + x0; i < y * w + x1; i++) {
        const rr = Math.min(255, d[3 * i] * gr) >> shift;
        const g = Math.min(255, d[3 * i + 1] * gg) >> shift;
        const b = Math.min(255, d[3 * i + 2] * gb) >> shift;
        out[i] = lut[(rr * size + g) * size + b];
      }
    }
  }
  return out;
}

/** The lookup of {@link segmentImage} with each pixel's gains from its block of a {@link BackdropField}. */
function labelWithField(
  out: Uint8Array,
  lut: Uint8Array,
  size: number,
  shift: number,
  field: BackdropField,
  d: Uint8Array,
  w: number,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
): void {
  const { block, columns, gains } = field;
  for (let y = y0; y < y1; y++) {
    const row = ((y / block) | 0) * columns;
    for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      const g = 3 * (row + ((x / block) | 0));
      const rr = Math.min(255, d[3 * i] * gains[g]) >> shift;
      const gg = Math.min(255, d[3 * i + 1] * gains[g + 1]) >> shift;
      const b = Math.min(255, d[3 * i + 2] * gains[g + 2]) >> shift;
      out[i] = lut[(rr * size + gg) * size + b];
    }
  }
}

import type { RgbImage } from '@mocap/media';

/** What {@link ghostBlend} found: how much of the previous frame each frame holds, and on what evidence. */
export interface GhostBlend {
  /** The share of frame t-1 blended into frame t (0: none found). */
  blend: number;
  /** Where the steps' in-between level peaked: 1 - blend for a ghosted clip, 1 for a clean one. */
  peak: number;
  /** Pixel steps measured (a pixel that holds one level for two frames, then another for two). */
  steps: number;
}

/** A step must change the grey level by at least this much to be measured (the creature against the studio). */
const MIN_STEP = 24;
/** Fewer steps than this is no evidence either way: no blend. */
const MIN_STEPS = 200;
/** A peak of the in-between level above this is a clean cut (anti-aliasing and the codec spread it below 1). */
const CLEAN_PEAK = 0.95;
/** The in-between level's histogram: bins over [LO, HI). */
const LO = 0.3;
const HI = 1.2;
const BINS = 90;
/**
 * H.264's bi-predicted blocks, their residual quantised away, show the mean of the frames either
 * side: a narrow spike of in-between levels at 0.5 in any codec-degraded clip, ghosted or not.
 * Bins within this of 0.5 are left out of the peak.
 */
const BIPRED_HALF_WIDTH = 0.04;
const bipredicted = (bin: number) =>
  Math.abs(LO + ((bin + 0.5) / BINS) * (HI - LO) - 0.5) < BIPRED_HALF_WIDTH;

/** Grey (BT.601) of every `stride`-th pixel along both axes. */
function greySubsample(img: RgbImage, stride: number): Float32Array {
  const w = Math.ceil(img.width / stride);
  const h = Math.ceil(img.height / stride);
  const g = new Float32Array(w * h);
  for (let y = 0, k = 0; y < h; y++)
    for (let x = 0; x < w; x++, k++) {
      const p = 3 * (y * stride * img.width + x * stride);
      g[k] = 0.299 * img.data[p]! + 0.587 * img.data[p + 1]! + 0.114 * img.data[p + 2]!;
    }
  return g;
}

/**
 * How much of the previous frame a clip's frames hold (a video model's ghosting: frame t shows
 * (1 - blend) x its own picture + blend x frame t-1's), from consecutive frames alone: where a
 * pixel holds one level P for two frames and another Q for the two after, the frame between shows
 * P + (1 - blend)(Q - P) in a ghosted clip and Q in a clean one. The in-between level of every such
 * step is histogrammed and its peak read; a peak at 1 (a clean cut) or too few steps give 0.
 *
 * ```ts
 * const { blend } = await ghostBlend(decodeVideo(clip, { maxFrames: 48 })); // consecutive frames
 * ```
 */
export async function ghostBlend(
  frames: Iterable<RgbImage> | AsyncIterable<RgbImage>,
  stride = 2,
): Promise<GhostBlend> {
  const none = (steps: number, peak = 1): GhostBlend => ({ blend: 0, peak, steps });
  const hist = new Float64Array(BINS);
  let steps = 0;
  let still = 0;
  // A window of five consecutive frames' grey levels.
  const g: Float32Array[] = [];
  for await (const f of frames) {
    g.push(greySubsample(f, stride));
    if (g.length > 5) g.shift();
    if (g.length === 2) {
      // The frame-to-frame noise of a still pixel (most pixels are the studio): a robust sigma.
      const n = g[0]!.length;
      const diffs = new Float32Array(Math.min(n, 20000));
      const every = Math.max(1, Math.floor(n / diffs.length));
      for (let i = 0; i < diffs.length; i++) diffs[i] = Math.abs(g[1]![i * every]! - g[0]![i * every]!);
      diffs.sort();
      still = Math.max(3, 3 * (1.4826 * diffs[diffs.length >> 1]! + 0.5));
    }
    if (g.length < 5) continue;
    const [a, b, c, d, e] = g as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
    const n = a.length;
    for (let i = 0; i < n; i++) {
      const p = b[i]!;
      const q = d[i]!;
      const step = q - p;
      if (Math.abs(step) < MIN_STEP) continue;
      if (Math.abs(a[i]! - p) > still || Math.abs(e[i]! - q) > still) continue;
      const lambda = (c[i]! - p) / step;
      steps++;
      if (lambda < LO || lambda >= HI) continue;
      hist[Math.floor(((lambda - LO) / (HI - LO)) * BINS)]! += 1;
    }
  }
  if (steps < MIN_STEPS) return none(steps);
  // The peak of the lightly smoothed histogram, refined by the centroid around it.
  for (let i = 0; i < BINS; i++) if (bipredicted(i)) hist[i] = 0;
  const smooth = hist.map((_, i) => 0.25 * (hist[i - 1] ?? 0) + 0.5 * hist[i]! + 0.25 * (hist[i + 1] ?? 0));
  let top = 0;
  for (let i = 1; i < BINS; i++) if (!bipredicted(i) && smooth[i]! > smooth[top]!) top = i;
  let sw = 0;
  let sl = 0;
  for (let i = Math.max(0, top - 2); i <= Math.min(BINS - 1, top + 2); i++) {
    sw += hist[i]!;
    sl += hist[i]! * (LO + ((i + 0.5) / BINS) * (HI - LO));
  }
  const peak = sw > 0 ? sl / sw : 1;
  if (peak > CLEAN_PEAK || peak < 0.5) return none(steps, peak);
  // A ghosted clip has few clean cuts left; a clean clip whose cuts a blur spreads keeps many.
  const one = Math.floor(((1 - LO) / (HI - LO)) * BINS);
  let cuts = 0;
  for (let i = one - 2; i <= one + 2; i++) cuts += hist[i] ?? 0;
  if (cuts > 0.5 * sw) return none(steps, peak);
  return { blend: 1 - peak, peak, steps };
}

/** A straight line through a per-frame series and how surely its slope differs from 0. */
export interface ScaleTrend {
  /** Value at frame 0 and change per frame. */
  intercept: number;
  slope: number;
  /** Standard error of the slope (from the residuals' robust spread). */
  slopeSe: number;
  /** Robust standard deviation of the residuals about the line. */
  sigma: number;
  /** Frames that had a value. */
  n: number;
}

const median = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) >> 1]! : 0.5 * (s[n / 2 - 1]! + s[n / 2]!);
};

/**
 * The Theil-Sen line through a per-frame series (NaN frames skipped): the median of the slopes
 * between every two frames at least `minGap` apart, the intercept the median of what is left; a
 * gait's swings and a few wrong frames do not tilt it as least squares would. Null with fewer than
 * 4 values.
 *
 * ```ts
 * const tr = scaleTrend(creatureScales(peaks, k, T, pairs));
 * ```
 */
export function scaleTrend(values: ArrayLike<number>, minGap = 1): ScaleTrend | null {
  const t: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < values.length; i++) {
    if (Number.isFinite(values[i]!)) {
      t.push(i);
      v.push(values[i]!);
    }
  }
  const n = t.length;
  if (n < 4) return null;
  const slopes: number[] = [];
  // Every pair for a clip's length; a stride keeps long clips' pairs in the tens of thousands.
  const stride = Math.max(1, Math.floor(n / 200));
  for (let i = 0; i < n; i += stride)
    for (let j = i + 1; j < n; j += stride) {
      if (t[j]! - t[i]! >= minGap) slopes.push((v[j]! - v[i]!) / (t[j]! - t[i]!));
    }
  if (slopes.length === 0) return null;
  const slope = median(slopes);
  const intercept = median(v.map((x, i) => x - slope * t[i]!));
  const res = v.map((x, i) => x - intercept - slope * t[i]!);
  const sigma = 1.4826 * median(res.map(Math.abs));
  const mt = t.reduce((a, b) => a + b, 0) / n;
  const stt = t.reduce((a, b) => a + (b - mt) ** 2, 0);
  return { intercept, slope, slopeSe: sigma / Math.sqrt(Math.max(stt, 1e-12)), sigma, n };
}

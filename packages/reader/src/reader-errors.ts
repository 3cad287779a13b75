import { ErrorStats } from '@mocap/layout';
import { z } from 'zod';

/** A reader's error on held-out renders, layout px: per view, both views, and visible joints only. */
export const ReaderErrors = z
  .object({
    /** Held-out samples measured. */
    samples: z.number().int().min(0),
    front: ErrorStats,
    side: ErrorStats,
    all: ErrorStats,
    /** Joints the meta marks visible in their view (all joints when the meta does not say). */
    visible: ErrorStats,
  })
  .strict();
/** A reader's held-out error, layout px. */
export type ReaderErrors = z.output<typeof ReaderErrors>;

/**
 * Mean, median, 95th percentile and max of a list of errors (NaN-free); all 0 for an empty list.
 *
 * ```ts
 * errorStats([1, 2, 3]); // { mean: 2, median: 2, p95: 2.9, max: 3 }
 * ```
 */
export function errorStats(values: readonly number[]): ErrorStats {
  if (values.length === 0) return { mean: 0, median: 0, p95: 0, max: 0 };
  const s = [...values].sort((a, b) => a - b);
  const q = (p: number) => {
    const x = p * (s.length - 1);
    const i = Math.floor(x);
    return s[i]! + (s[Math.min(i + 1, s.length - 1)]! - s[i]!) * (x - i);
  };
  return {
    mean: s.reduce((a, b) => a + b, 0) / s.length,
    median: q(0.5),
    p95: q(0.95),
    max: s[s.length - 1]!,
  };
}

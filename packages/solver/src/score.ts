import type { ErrorStats } from '@mocap/layout';

/** Mean, median, 95th percentile and max of `values` (empty: all 0). */
export function errorStats(values: ArrayLike<number>): ErrorStats {
  const v = Float64Array.from(values).sort();
  const n = v.length;
  if (n === 0) return { mean: 0, median: 0, p95: 0, max: 0 };
  let s = 0;
  for (let i = 0; i < n; i++) s += v[i] as number;
  const q = (p: number): number => {
    const x = p * (n - 1);
    const i = Math.floor(x);
    const fr = x - i;
    return (v[i] as number) * (1 - fr) + (v[Math.min(n - 1, i + 1)] as number) * fr;
  };
  return { mean: s / n, median: q(0.5), p95: q(0.95), max: v[n - 1] as number };
}

/** Per-joint 3D errors of a fit against the truth, cm: overall, per group and per joint. */
export interface JointScore {
  error_cm: ErrorStats;
  per_group: Record<string, ErrorStats>;
  per_joint: Record<string, ErrorStats>;
}

/**
 * Scores fitted joints against true joints (both T x K x 3 metres) as 3D error in cm.
 *
 * ```ts
 * const s = scoreJoints(fit.joints, truth.joints, names, info.groups);
 * s.error_cm.mean;
 * ```
 */
export function scoreJoints(
  fitted: ArrayLike<number>,
  truth: ArrayLike<number>,
  names: string[],
  groups: Record<string, number[]> = {},
): JointScore {
  const k = names.length;
  const t = Math.floor(truth.length / (3 * k));
  const err = new Float64Array(t * k);
  for (let i = 0; i < t * k; i++) {
    const dx = (fitted[3 * i] as number) - (truth[3 * i] as number);
    const dy = (fitted[3 * i + 1] as number) - (truth[3 * i + 1] as number);
    const dz = (fitted[3 * i + 2] as number) - (truth[3 * i + 2] as number);
    err[i] = 100 * Math.sqrt(dx * dx + dy * dy + dz * dz);
  }
  const pick = (js: number[]): number[] => {
    const out: number[] = [];
    for (let f = 0; f < t; f++) for (const j of js) out.push(err[f * k + j] as number);
    return out;
  };
  const per_group: Record<string, ErrorStats> = {};
  for (const [g, js] of Object.entries(groups)) per_group[g] = errorStats(pick(js));
  const per_joint: Record<string, ErrorStats> = {};
  names.forEach((n, j) => {
    per_joint[n] = errorStats(pick([j]));
  });
  return { error_cm: errorStats(err), per_group, per_joint };
}

import type { ViewData } from '../src/view-data.js';

/** One joint's figures over the clip. */
export interface JointStats {
  name: string;
  frontConf: number;
  sideConf: number;
  /** Error against truth.json, cm (NaN without truth). */
  meanCm: number;
  p95Cm: number;
  maxCm: number;
}

const mean = (a: number[]) => (a.length ? a.reduce((s, v) => s + v, 0) / a.length : Number.NaN);

function quantile(a: number[], q: number): number {
  if (!a.length) return Number.NaN;
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] as number;
}

/** Per joint: mean confidences in both views and, with truth, the error's mean, p95 and max. */
export function jointStats(data: ViewData): JointStats[] {
  return data.names.map((name, j) => {
    const col = (rows: number[][] | undefined) => (rows ? rows.map((r) => r[j] as number) : []);
    const err = col(data.truth?.errorCm);
    return {
      name,
      frontConf: mean(col(data.det?.frontConf)),
      sideConf: mean(col(data.det?.sideConf)),
      meanCm: mean(err),
      p95Cm: quantile(err, 0.95),
      maxCm: err.length ? Math.max(...err) : Number.NaN,
    };
  });
}

/** Per frame, the mean over joints of `rows` (T x K). */
export const frameMeans = (rows: number[][]) => rows.map(mean);

/** Per frame, the max over joints of `rows` (T x K). */
export const frameMaxes = (rows: number[][]) => rows.map((r) => Math.max(...r));

/** The median of the values (NaN for none). */
export const median = (a: number[]) => quantile(a, 0.5);

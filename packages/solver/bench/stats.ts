import { loadavg } from 'node:os';

/** The median of `v` (the upper one of an even count). */
export const median = (v: number[]): number =>
  v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;

/** The 1, 5 and 15 minute load averages, as `"1.23 0.98 0.75"`. */
export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

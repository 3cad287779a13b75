import type { ViewData } from '../src/view-data.js';

/** Confidence under which a detection is flagged (in either view). */
export const LOW_CONF = 0.5;
/** An error over this many times the clip's median joint error is flagged. */
export const BAD_ERROR = 2;

/** What is wrong with a joint at a frame, if anything: a large error beats a low confidence. */
export type JointFlag = 'bad' | 'low' | null;

function median(values: number[]): number {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? (s[Math.floor(s.length / 2)] as number) : Number.NaN;
}

/**
 * Per frame and joint, the flag the views draw: `bad` where the error against truth.json exceeds
 * {@link BAD_ERROR} times the clip's median, `low` where a view's confidence is under
 * {@link LOW_CONF}.
 */
export function jointFlags(data: ViewData): JointFlag[][] {
  const typical = data.truth ? median(data.truth.errorCm.flat()) : Number.NaN;
  return Array.from({ length: data.frames }, (_, t) =>
    data.names.map((_, j) => {
      const err = data.truth?.errorCm[t]?.[j] ?? Number.NaN;
      if (err > BAD_ERROR * typical) return 'bad';
      const conf = Math.min(data.det?.frontConf[t]?.[j] ?? 1, data.det?.sideConf[t]?.[j] ?? 1);
      return conf < LOW_CONF ? 'low' : null;
    }),
  );
}

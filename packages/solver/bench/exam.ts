/**
 * The synthetic exam on a bundled creature at T = 120 and T = 480 (2 px noise, 5% outliers),
 * seeds 1..5, with and without 10% left/right swaps, and from perfect detections: error
 * figures and fit seconds (median), the load average before and after.
 *
 *   pnpm --filter @mocap/solver exec node --conditions=@mocap/source --import tsx bench/exam.ts [wolf|dragon] [--quick]
 *     [--robust K --rounds R --seeds 1,2,3]   (the fit's robustJerk / robustRounds options)
 *     [--fit JSON]   (any other fit options, e.g. '{"lagRelease":null}')
 */
import { syntheticExam } from '@mocap/solver/internal';
import { loadCreature } from '../test/helpers.js';
import { loadAverage, median } from './stats.js';

const name = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'wolf';
const quick = process.argv.includes('--quick');
const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const robust = {
  ...(flag('robust') === undefined ? {} : { robustJerk: Number(flag('robust')) }),
  ...(flag('rounds') === undefined ? {} : { robustRounds: Number(flag('rounds')) }),
};
const extra = JSON.parse(flag('fit') ?? '{}') as Record<string, unknown>;
const { model, layout, info } = loadCreature(name);

// A fixed reference workload, so figures from a loaded machine can be put in proportion.
function reference(): number {
  const a = new Float64Array(1000).map((_, i) => i * 1e-3);
  let s = 0;
  const t0 = performance.now();
  for (let r = 0; r < 100000; r++)
    for (let i = 0; i < 1000; i++) s += (a[i] as number) * (a[(i * 7) % 1000] as number);
  return s > 0 ? (performance.now() - t0) / 1000 : 0;
}
const refBefore = reference();

const rows: string[] = [];
const times: Record<string, number[]> = {};
const seeds = flag('seeds')?.split(',').map(Number) ?? (quick ? [1, 2] : [1, 2, 3, 4, 5]);
const loadBefore = loadAverage();
const cases = [
  { label: '2 px, 5% outliers', noisePx: 2, outliers: 0.05, swaps: 0 },
  { label: '2 px, 5% outliers, 10% swaps', noisePx: 2, outliers: 0.05, swaps: 0.1 },
  { label: 'perfect', noisePx: 0, outliers: 0, swaps: 0 },
];
for (const frames of quick ? [120] : [120, 480]) {
  for (const c of quick ? cases.slice(0, 2) : cases) {
    for (const seed of seeds) {
      const { report } = syntheticExam(model, name, layout, info, {
        frames,
        seed,
        noisePx: c.noisePx,
        outliers: c.outliers,
        swaps: c.swaps,
        fit: { ...robust, ...extra },
      });
      const e = report.error_cm;
      const key = `T=${frames} ${c.label}`;
      times[key] = [...(times[key] ?? []), report.fit_seconds];
      rows.push(
        `| ${frames} | ${c.label} | ${seed} | ${e.mean.toFixed(4)} | ${e.median.toFixed(3)} | ${e.p95.toFixed(3)} | ${e.max.toFixed(2)} | ${report.fit_seconds.toFixed(3)} |`,
      );
    }
  }
}
console.log(
  `${name}: synthetic exam (errors in cm, fit in s; load average ${loadBefore} before, ${loadAverage()} after)\n`,
);
console.log('| T | detections | seed | mean | median | p95 | max | fit s |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
console.log('');
for (const [k, v] of Object.entries(times))
  console.log(`${k}: median fit ${median(v).toFixed(3)} s over ${v.length} seeds`);
console.log(
  `reference loop (1e8 multiply-adds): ${refBefore.toFixed(2)} s before the exams, ${reference().toFixed(2)} s after`,
);

/**
 * Fit time of the wolf at T = 120 and T = 480 (2 px noise, 5% outliers, seed 1), as the issue
 * states it: the median of 5 warm fits each, and their ratio. The two clips are fitted side by
 * side (120, 480, 120, 480, ...), so a shared machine's changing load falls on both alike.
 * Beside wall-clock seconds it prints the process's CPU seconds per fit (all threads: compiler
 * and GC included), which load inflates far less, the work done (clip-stage steps and
 * conjugate-gradient iterations, the same at both lengths) and the load average before and after.
 *
 *   pnpm --filter @mocap/solver exec node --conditions=@mocap/source --import tsx bench/fit-time.ts [runs]
 */
import { fit } from '@mocap/solver';
import { loadAverage, median } from './stats.js';
import { wolf, wolfDetections } from './wolf-setup.js';

const { model, layout, info } = wolf;
const runs = Number(process.argv[2] ?? 5);

console.log(`load average before: ${loadAverage()}`);
const clips = [120, 480].map((frames) => ({
  frames,
  det: wolfDetections(frames),
  wall: [] as number[],
  cpu: [] as number[],
  work: '',
}));
// Two warm-up fits each: under load the compiler is still busy during the second fit of a process.
for (let w = 0; w < 2; w++) for (const c of clips) fit(model, c.det, { layout, creature: info });
for (let r = 0; r < runs; r++) {
  for (const c of clips) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const { counts } = fit(model, c.det, { layout, creature: info });
    c.wall.push((performance.now() - t0) / 1000);
    const u = process.cpuUsage(c0);
    c.cpu.push((u.user + u.system) / 1e6);
    c.work = `${counts.clipSteps} clip steps, ${counts.cgIterations} CG iterations, ${counts.reseeded} frames restarted`;
  }
}
for (const c of clips) {
  console.log(
    `T = ${c.frames}: median of ${runs} ${median(c.wall).toFixed(3)} s wall (${c.wall.map((x) => x.toFixed(3)).join(' ')}), ${median(c.cpu).toFixed(3)} s CPU; ${c.work}`,
  );
}
const [a, b] = clips as [(typeof clips)[0], (typeof clips)[0]];
console.log(
  `T = 480 / T = 120: ${(median(b.wall) / median(a.wall)).toFixed(2)}x wall, ${(median(b.cpu) / median(a.cpu)).toFixed(2)}x CPU`,
);
console.log(`load average after: ${loadAverage()}`);

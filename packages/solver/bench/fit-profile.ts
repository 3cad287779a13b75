/**
 * How the fit's cost grows with the clip (wolf, 2 px noise, 5% outliers, seed 1), T = 30 .. 960
 * fitted side by side in each round: median CPU ms per frame, per stage wall ms per frame, and
 * the work done (clip-stage steps, conjugate-gradient iterations, frames restarted). Flat
 * columns mean linear scaling; work that grows with T, or a cost per frame that does, is what
 * makes a long clip superlinear.
 *
 *   pnpm --filter @mocap/solver exec node --conditions=@mocap/source --import tsx bench/fit-profile.ts [runs] [T,T,...]
 */
import { fit } from '@mocap/solver';
import { loadAverage, median } from './stats.js';
import { wolf, wolfDetections } from './wolf-setup.js';

const { model, layout, info } = wolf;
const runs = Number(process.argv[2] ?? 5);
const lengths = (process.argv[3] ?? '30,60,120,240,480,960').split(',').map(Number);

console.log(`load average before: ${loadAverage()}`);
const clips = lengths.map((frames) => ({
  frames,
  det: wolfDetections(frames),
  cpu: [] as number[],
  stages: {} as Record<string, number[]>,
  work: '',
}));
for (let w = 0; w < 2; w++) for (const c of clips) fit(model, c.det, { layout, creature: info });
for (let r = 0; r < runs; r++) {
  for (const c of clips) {
    const c0 = process.cpuUsage();
    const res = fit(model, c.det, { layout, creature: info });
    const u = process.cpuUsage(c0);
    c.cpu.push((u.user + u.system) / 1e3 / c.frames);
    for (const [k, v] of Object.entries(res.stages)) {
      const col = c.stages[k] ?? [];
      col.push((v * 1000) / c.frames);
      c.stages[k] = col;
    }
    const n = res.counts;
    c.work = `${n.clipSteps} steps, ${n.cgIterations} CG, ${n.reseeded} restarted`;
  }
}
const stageNames = Object.keys(clips[0]?.stages ?? {});
console.log(`| T | CPU ms/frame | ${stageNames.map((s) => `${s} ms/frame`).join(' | ')} | work |`);
console.log(`|---|---|${stageNames.map(() => '---|').join('')}---|`);
for (const c of clips) {
  const st = stageNames.map((s) => median(c.stages[s] ?? []).toFixed(3)).join(' | ');
  console.log(`| ${c.frames} | ${median(c.cpu).toFixed(3)} | ${st} | ${c.work} |`);
}
console.log(`load average after: ${loadAverage()}`);

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
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreatureJson, Layout, RigJson } from '@mocap/layout';
import { creatureInfo, fit, rigModelFromRigJson, syntheticDetections, syntheticMotion } from '@mocap/solver';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, '../../../creatures/wolf');
const rig = RigJson.parse(JSON.parse(readFileSync(path.join(dir, 'rig.json'), 'utf8')));
const creature = CreatureJson.parse(JSON.parse(readFileSync(path.join(dir, 'creature.json'), 'utf8')));
const layout = Layout.parse(creature.layout);
const model = rigModelFromRigJson(rig);
const info = creatureInfo(model, creature);
const names = model.keypoints.map((k) => k.name);
const runs = Number(process.argv[2] ?? 5);
const median = (v: number[]) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(`load average before: ${load()}`);
const clips = [120, 480].map((frames) => {
  const truth = syntheticMotion(model, info, { frames, seed: 1 });
  const det = syntheticDetections(truth.joints, names, 30, layout, info, {
    noisePx: 2,
    outliers: 0.05,
    seed: 1,
  });
  return { frames, det, wall: [] as number[], cpu: [] as number[], work: '' };
});
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
console.log(`load average after: ${load()}`);

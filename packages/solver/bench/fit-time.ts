/**
 * Fit time of the wolf at T = 120 and T = 480 (2 px noise, 5% outliers, seed 1), as the issue
 * states it: the median of 5 warm fits each, and their ratio. Beside wall-clock seconds it
 * prints the process's CPU seconds per fit (all threads: compiler and GC included), which a
 * shared machine's load inflates far less, and the load average before and after.
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
const medians: Record<number, { wall: number; cpu: number }> = {};
for (const frames of [120, 480]) {
  const truth = syntheticMotion(model, info, { frames, seed: 1 });
  const det = syntheticDetections(truth.joints, names, 30, layout, info, {
    noisePx: 2,
    outliers: 0.05,
    seed: 1,
  });
  // Two warm-up fits: under load the compiler is still busy during the second fit of a process.
  for (let w = 0; w < 2; w++) fit(model, det, { layout, creature: info });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < runs; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fit(model, det, { layout, creature: info });
    wall.push((performance.now() - t0) / 1000);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1e6);
  }
  medians[frames] = { wall: median(wall), cpu: median(cpu) };
  console.log(
    `T = ${frames}: median of ${runs} ${median(wall).toFixed(3)} s wall (${wall.map((x) => x.toFixed(3)).join(' ')}), ${median(cpu).toFixed(3)} s CPU`,
  );
}
const a = medians[120] as { wall: number; cpu: number };
const b = medians[480] as { wall: number; cpu: number };
console.log(`T = 480 / T = 120: ${(b.wall / a.wall).toFixed(2)}x wall, ${(b.cpu / a.cpu).toFixed(2)}x CPU`);
console.log(`load average after: ${load()}`);

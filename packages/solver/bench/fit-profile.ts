/**
 * How the fit's cost grows with the clip (wolf, 2 px noise, 5% outliers, seed 1), T = 30 .. 960
 * fitted side by side in each round: median CPU ms per frame, per stage wall ms per frame, and
 * the work done (clip-stage steps, conjugate-gradient iterations, frames restarted). Flat
 * columns mean linear scaling; work that grows with T, or a cost per frame that does, is what
 * makes a long clip superlinear.
 *
 *   pnpm --filter @mocap/solver exec node --conditions=@mocap/source --import tsx bench/fit-profile.ts [runs] [T,T,...]
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
const lengths = (process.argv[3] ?? '30,60,120,240,480,960').split(',').map(Number);
const median = (v: number[]) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)] as number;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(`load average before: ${load()}`);
const clips = lengths.map((frames) => {
  const truth = syntheticMotion(model, info, { frames, seed: 1 });
  const det = syntheticDetections(truth.joints, names, 30, layout, info, {
    noisePx: 2,
    outliers: 0.05,
    seed: 1,
  });
  return { frames, det, cpu: [] as number[], stages: {} as Record<string, number[]>, work: '' };
});
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
console.log(`load average after: ${load()}`);

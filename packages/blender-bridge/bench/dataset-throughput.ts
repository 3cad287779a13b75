// Dataset throughput in two-view samples/s after start-up, real Blender:
//   pnpm --filter @mocap/blender-bridge bench:dataset [creature] [count] [runs] [processes] [aa] [studio|transparent]
// Preps and rigs a temporary copy of the creature once, then renders `count` samples `runs` times
// into fresh folders and prints each run and the medians.
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRig, prepMesh, renderDataset } from '@mocap/blender-bridge';

const [name = 'wolf', countArg = '40', runsArg = '3', procArg = '1', aa = 'OFF', backdrop = 'studio'] =
  process.argv.slice(2);
const transparent = backdrop === 'transparent';
const processes = Number(procArg);
const count = Number(countArg);
const runs = Number(runsArg);
const src = fileURLToPath(new URL(`../../../creatures/${name}/`, import.meta.url));
const dir = await mkdtemp(path.join(tmpdir(), `mocap-bench-${name}-`));
for (const f of ['creature.json', 'rig.json', 'model.glb'])
  await copyFile(path.join(src, f), path.join(dir, f));
await prepMesh({ creature: dir });
await buildRig({ creature: dir });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rates: number[] = [];
const startups: number[] = [];
const walls: number[] = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const r = await renderDataset({
    creature: dir,
    count,
    seed: i,
    aa,
    processes,
    transparent,
    out: path.join(dir, 'runs', `dataset-${i}`),
  });
  const wall = (performance.now() - t0) / 1000;
  rates.push(r.samplesPerSecond ?? 0);
  startups.push(wall - r.loopSeconds);
  walls.push(wall);
  console.log(
    `run ${i + 1}: ${count} samples, ${r.samplesPerSecond?.toFixed(2)} samples/s after start-up, ` +
      `start-up ${(wall - r.loopSeconds).toFixed(2)} s, wall ${wall.toFixed(2)} s`,
  );
}
console.log(
  `${name} (aa ${aa}, ${processes} process(es), ${backdrop}): median ${median(rates).toFixed(2)} two-view samples/s after start-up; ` +
    `median start-up ${median(startups).toFixed(2)} s; median wall ${median(walls).toFixed(2)} s for ${count}`,
);

// apply's wall time (keys, joints.json, exports, renders) on a rigged creature, real Blender:
//   pnpm --filter @mocap/blender-bridge bench:apply [creature] [frames] [runs] [mode] [processes] [WxH] [aa]
// mode: none (exports only: glb, bvh, fbx), showcase (+ the 3/4 view of every frame, WxH, aa),
// three (+ front and side at aa 8 and the 3/4 view at aa 8: the images capture rendered before,
// now as animation renders). Defaults: wolf 60 3 showcase 1 640x480 OFF (what capture runs).
// `creature` is a bundled creature's name (a temporary copy is prepped and rigged once) or a
// folder already rigged. Prints each run and the median.

import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMotion, buildRig, prepMesh } from '@mocap/blender-bridge';
import { atomicWriteJson, creaturePaths, RigInfo, readJsonFile } from '@mocap/layout';
import { randomMotion } from '../test/helpers/creature.js';

const [
  name = 'wolf',
  framesArg = '60',
  runsArg = '3',
  mode = 'showcase',
  procArg = '1',
  size = '640x480',
  aa = 'OFF',
] = process.argv.slice(2);
const frames = Number(framesArg);
const runs = Number(runsArg);
const processes = Number(procArg);
const [width, height] = size.split('x').map(Number) as [number, number];
if (!['none', 'showcase', 'three'].includes(mode))
  throw new Error(`bench:apply: mode: expected none, showcase or three, got "${mode}".`);
let dir = name;
let temp = false;
if (!existsSync(path.join(name, 'runs', 'rigged', 'rigged.blend'))) {
  const src = fileURLToPath(new URL(`../../../creatures/${name}/`, import.meta.url));
  dir = await mkdtemp(path.join(tmpdir(), `mocap-bench-apply-${name}-`));
  temp = true;
  for (const f of ['creature.json', 'rig.json', 'model.glb'])
    await copyFile(path.join(src, f), path.join(dir, f));
  await prepMesh({ creature: dir });
  await buildRig({ creature: dir });
}
const info = await readJsonFile('bench', creaturePaths(dir).rigInfo, RigInfo);
const motion = path.join(dir, 'runs', 'capture', `bench-${frames}`, 'motion.json');
await atomicWriteJson(motion, { ...randomMotion(info, frames, 11), fps: 30 });
const walls: number[] = [];
for (let i = 0; i < runs; i++) {
  const out = path.join(dir, 'runs', 'apply', `bench-${mode}-${frames}-${i}`);
  await rm(out, { recursive: true, force: true });
  const load = loadavg()[0]!.toFixed(1);
  const t0 = performance.now();
  await applyMotion({
    creature: dir,
    motion,
    out,
    processes,
    ...(mode === 'none'
      ? {}
      : mode === 'showcase'
        ? { renders: 'all', views: ['showcase'], showcase: { width, height, aa } }
        : {
            renders: 'all',
            views: ['front', 'side', 'showcase'],
            aa: '8',
            showcase: { width, height, aa: '8' },
          }),
  });
  const wall = (performance.now() - t0) / 1000;
  walls.push(wall);
  console.log(`run ${i + 1}: ${wall.toFixed(2)} s (load ${load} at the start)`);
  await rm(out, { recursive: true, force: true });
}
const median = [...walls].sort((a, b) => a - b)[Math.floor(walls.length / 2)]!;
console.log(
  `apply ${mode} ${frames} frames${mode === 'none' ? '' : ` ${size} aa ${mode === 'three' ? '8' : aa}`}, ${processes} process(es): median ${median.toFixed(2)} s of ${runs}`,
);
if (temp) await rm(dir, { recursive: true, force: true });

import { readFile } from 'node:fs/promises';
import { CreatureJson, Layout, RigJson, readDetections } from '@mocap/layout';
import { creatureInfo, fit, rigModelFromRigJson } from '@mocap/solver';

const T = process.argv[2] ?? '120';
const rig = RigJson.parse(JSON.parse(await readFile('/work/main/creatures/wolf/rig.json', 'utf8')));
const cj = CreatureJson.parse(JSON.parse(await readFile('/work/main/creatures/wolf/creature.json', 'utf8')));
const model = rigModelFromRigJson(rig);
const det = await readDetections(`/tmp/cf/det-${T}.npz`);
const layout = Layout.parse(cj.layout);
for (let i = 0; i < Number(process.argv[3] ?? 3); i++) {
  const r = fit(model, det, { layout, creature: creatureInfo(model, cj) });
  console.log(
    r.seconds.toFixed(3),
    JSON.stringify(Object.fromEntries(Object.entries(r.stages).map(([k, v]) => [k, +v.toFixed(3)]))),
    r.counts,
    r.motion.reproj_px?.toFixed?.(2),
  );
}

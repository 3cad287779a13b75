import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreatureJson, Layout, RigJson } from '@mocap/layout';
import { creatureInfo, fit, rigModelFromRigJson, syntheticDetections, syntheticMotion } from '@mocap/solver';
import { bench, describe } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.join(here, '../../../creatures/wolf');
const rig = RigJson.parse(JSON.parse(readFileSync(path.join(dir, 'rig.json'), 'utf8')));
const creature = CreatureJson.parse(JSON.parse(readFileSync(path.join(dir, 'creature.json'), 'utf8')));
const layout = Layout.parse(creature.layout);
const model = rigModelFromRigJson(rig);
const info = creatureInfo(model, creature);
const names = model.keypoints.map((k) => k.name);

function detections(frames: number) {
  const truth = syntheticMotion(model, info, { frames, seed: 1 });
  return syntheticDetections(truth.joints, names, 30, layout, info, { noisePx: 2, outliers: 0.05, seed: 1 });
}
const d120 = detections(120);
const d480 = detections(480);

describe('fit the wolf (2 px noise, 5% outliers)', () => {
  bench(
    'T = 120',
    () => {
      fit(model, d120, { layout, creature: info });
    },
    // Two warm-up fits: under load the compiler is still busy during the second fit of a process.
    { iterations: 5, warmupIterations: 2 },
  );
  bench(
    'T = 480',
    () => {
      fit(model, d480, { layout, creature: info });
    },
    // Warmed up like T = 120, so the ratio compares compiled code with compiled code.
    { iterations: 3, warmupIterations: 2 },
  );
});

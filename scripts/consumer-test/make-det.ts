// The clip the README examples read: the wolf's det.npz as `mocap detect` writes it, here from a
// seeded synthetic motion with 2 px of noise, made with the packed packages themselves.
import { mkdir } from 'node:fs/promises';
import { CreatureJson, Layout, RigJson, readJsonFile, writeDetections } from '@mocap/layout';
import { creatureInfo, rigModelFromRigJson, syntheticDetections, syntheticMotion } from '@mocap/solver';

const rig = await readJsonFile('consumer-test', 'creatures/wolf/rig.json', RigJson);
const creature = await readJsonFile('consumer-test', 'creatures/wolf/creature.json', CreatureJson);
const model = rigModelFromRigJson(rig);
const info = creatureInfo(model, creature);
const truth = syntheticMotion(model, info, { frames: 60, seed: 1 });
const names = model.keypoints.map((k) => k.name);
const det = syntheticDetections(truth.joints, names, truth.fps, Layout.parse(creature.layout), info, {
  noisePx: 2,
  seed: 1,
});
await mkdir('runs/wolf', { recursive: true });
await writeDetections('runs/wolf/det.npz', det);
console.log(`runs/wolf/det.npz: ${truth.frames} frames, ${names.length} joints`);

// Writes creatures/wolf/model.glb and creatures/dragon/model.glb from their rig.json and
// creature.json (deterministic): pnpm --filter @mocap/blender-bridge make-creatures
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { creatureGlb } from '@mocap/blender-bridge/internal';
import { CreatureJson, RigJson, readJsonFile } from '@mocap/layout';

const creatures = fileURLToPath(new URL('../../../creatures/', import.meta.url));
for (const kind of ['wolf', 'dragon'] as const) {
  const dir = path.join(creatures, kind);
  const rig = await readJsonFile('make-creatures', path.join(dir, 'rig.json'), RigJson);
  const creature = await readJsonFile('make-creatures', path.join(dir, 'creature.json'), CreatureJson);
  const glb = await creatureGlb(rig, { kind, lengthM: creature.prep.length_m });
  await writeFile(path.join(dir, 'model.glb'), glb);
  console.log(`${path.join(dir, 'model.glb')}: ${glb.byteLength} bytes`);
}

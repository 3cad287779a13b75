import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreatureJson, Layout, RigJson } from '@mocap/layout';
import { creatureInfo, rigModelFromRigJson } from '@mocap/solver';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A bundled creature (creatures/<name>): its rig.json, creature.json, layout, model and creature info. */
export function loadCreature(name: string) {
  const dir = path.join(root, 'creatures', name);
  const rig = RigJson.parse(JSON.parse(readFileSync(path.join(dir, 'rig.json'), 'utf8')));
  const creature = CreatureJson.parse(JSON.parse(readFileSync(path.join(dir, 'creature.json'), 'utf8')));
  const layout = Layout.parse(creature.layout);
  const model = rigModelFromRigJson(rig);
  return { dir, rig, creature, layout, model, info: creatureInfo(model, creature) };
}

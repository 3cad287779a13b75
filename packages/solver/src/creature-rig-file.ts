import { existsSync } from 'node:fs';
import { creaturePaths } from '@mocap/layout';

/**
 * The rig file the solver reads for the creature in `dir`: `runs/rigged/rig_info.json` when
 * `mocap rig` has written one (Blender's own matrices), else `rig.json`.
 *
 * ```ts
 * const model = await readRigModel('solve', creatureRigFile('creatures/wolf'));
 * ```
 */
export function creatureRigFile(dir: string): string {
  const p = creaturePaths(dir);
  return existsSync(p.rigInfo) ? p.rigInfo : p.rigJson;
}

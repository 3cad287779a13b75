import { existsSync } from 'node:fs';
import { creaturePaths, FileError } from '@mocap/layout';

/**
 * Throws unless `mocap prep` and `mocap rig` have run for the creature at `dir` (rigged.blend and
 * rig_info.json, which apply and render need); the message names the commands.
 */
export function requireRigged(op: string, dir: string): void {
  const p = creaturePaths(dir);
  for (const file of [p.riggedBlend, p.rigInfo]) {
    if (!existsSync(file)) {
      throw new FileError(`${op}: ${file}: missing; run \`mocap prep\` then \`mocap rig\` first.`, file, '');
    }
  }
}

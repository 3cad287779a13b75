import { existsSync } from 'node:fs';
import path from 'node:path';
import { creaturePaths } from '@mocap/blender-bridge';

/**
 * The reader folder a creature uses by default: `<creature>/runs/reader` when a reader was trained
 * there, else `<creature>/reader` (the weights shipped with the creature).
 */
export function defaultReader(dir: string): string {
  const trained = path.join(creaturePaths(dir).runs, 'reader');
  if (existsSync(path.join(trained, 'model.json'))) return trained;
  const shipped = path.join(dir, 'reader');
  return existsSync(path.join(shipped, 'model.json')) ? shipped : trained;
}

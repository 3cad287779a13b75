import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The creature folder a capture or exam folder belongs to: the nearest folder above it (at most
 * four levels: `<creature>/runs/capture/<clip>`) holding creature.json, else null.
 *
 * ```ts
 * findCreature('creatures/wolf/runs/exam/render-seed1'); // .../creatures/wolf
 * ```
 */
export function findCreature(folder: string): string | null {
  let dir = path.resolve(folder);
  for (let i = 0; i < 4; i++) {
    dir = path.dirname(dir);
    if (existsSync(path.join(dir, 'creature.json'))) return dir;
  }
  return null;
}

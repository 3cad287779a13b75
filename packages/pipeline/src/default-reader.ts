import { existsSync } from 'node:fs';
import path from 'node:path';
import { creaturePaths } from '@mocap/layout';

/**
 * The reader folder a creature uses by default: `<creature>/runs/reader` when a reader was trained
 * there, else `<creature>/reader` (the weights shipped with the creature).
 */
export function defaultReader(dir: string): string {
  const p = creaturePaths(dir);
  if (existsSync(path.join(p.reader, 'model.json'))) return p.reader;
  return existsSync(path.join(p.shippedReader, 'model.json')) ? p.shippedReader : p.reader;
}

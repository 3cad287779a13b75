import { existsSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's creatures folder (absolute). */
export const CREATURES = fileURLToPath(new URL('../../../creatures/', import.meta.url));

/** The folder of a bundled creature (`creatures/<name>`), or a file in it. */
export function creatureDir(name: string, ...file: string[]): string {
  return path.join(CREATURES, name, ...file);
}

/** Options of {@link copyCreature}. */
export interface CopyCreatureOptions {
  /** The files to copy; a missing rig.json is skipped (a creature rigged from its glb's skin has none). @default ['creature.json', 'rig.json', 'model.glb'] */
  files?: readonly string[];
  /** The temporary folder's name before its random suffix. @default `mocap-<name>-` */
  prefix?: string;
}

/**
 * Copies a bundled creature's inputs into a fresh temporary folder (so runs/ lands there, not in
 * creatures/); resolves to the folder.
 */
export async function copyCreature(name: string, options: CopyCreatureOptions = {}): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), options.prefix ?? `mocap-${name}-`));
  for (const f of options.files ?? ['creature.json', 'rig.json', 'model.glb']) {
    if (f === 'rig.json' && !existsSync(creatureDir(name, f))) continue;
    await copyFile(creatureDir(name, f), path.join(dir, f));
  }
  return dir;
}

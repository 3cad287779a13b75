import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  atomicWriteJson,
  CreatureJson,
  creaturePaths,
  FileError,
  parseFileData,
  RigJson,
  readJsonFile,
} from '@mocap/layout';
import { rigJsonSkeleton } from './creature-skeleton.js';
import { readGlbSkeleton } from './glb-skeleton.js';
import { type CreatureProposal, proposeCreature } from './propose-creature.js';

/** Options of {@link initCreature}. */
export interface InitCreatureOptions {
  /** Overwrite an existing creature.json. @default false */
  force?: boolean;
  /** Write nothing; only return the proposal. @default false */
  dryRun?: boolean;
}

/** What {@link initCreature} did. */
export interface InitCreatureResult extends CreatureProposal {
  /** The skeleton's file: rig.json, else model.glb. */
  source: string;
  /** The file written (creature.json, or creature.proposed.json beside an existing one), null with `dryRun`. */
  file: string | null;
}

const OP = 'init';

/**
 * `mocap init`: proposes creature.json for the creature in `dir` from its skeleton (rig.json, else
 * model.glb's skin) with {@link proposeCreature}, validates it against the schema and writes it:
 * to creature.json when there is none (or with `force`), else to creature.proposed.json beside
 * it, so a reviewed file is never overwritten by accident.
 *
 * ```ts
 * const { file, notes } = await initCreature('creatures/my-fox');
 * ```
 */
export async function initCreature(
  dir: string,
  options: InitCreatureOptions = {},
): Promise<InitCreatureResult> {
  const paths = creaturePaths(dir);
  const fromRig = existsSync(paths.rigJson);
  if (!fromRig && !existsSync(paths.model)) {
    throw new FileError(
      `${OP}: ${paths.rigJson}: neither it nor ${paths.model} exists, so there is no skeleton to read.`,
      paths.rigJson,
    );
  }
  const skeleton = fromRig
    ? rigJsonSkeleton(await readJsonFile(OP, paths.rigJson, RigJson), paths.rigJson)
    : await readGlbSkeleton(OP, paths.model);
  const proposal = proposeCreature(skeleton, { name: path.basename(path.resolve(dir)) });
  parseFileData(OP, paths.creatureJson, proposal.creature, CreatureJson);
  const source = fromRig ? paths.rigJson : paths.model;
  if (options.dryRun) return { ...proposal, source, file: null };
  const file =
    existsSync(paths.creatureJson) && !options.force
      ? path.join(path.dirname(paths.creatureJson), 'creature.proposed.json')
      : paths.creatureJson;
  await atomicWriteJson(file, proposal.creature);
  return { ...proposal, source, file };
}

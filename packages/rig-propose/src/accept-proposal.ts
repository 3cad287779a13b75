import { existsSync } from 'node:fs';
import { atomicWriteJson, creaturePaths, RigJson, readJsonFile } from '@mocap/layout';
import { proposalPaths } from './propose-rig.js';

/** Options of {@link acceptProposal}. */
export interface AcceptProposalOptions {
  creature: string;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
  /** Replace an existing rig.json. @default false */
  force?: boolean | undefined;
}

/**
 * `mocap rig --accept`: copies the reviewed `runs/propose/rig.proposed.json` (validated) to the
 * creature's rig.json, atomically. Refuses, naming the file, when there is no proposal or when
 * rig.json exists and `force` is not set. Returns the rig.json path.
 *
 * ```ts
 * await acceptProposal({ creature: 'creatures/my-beast' }); // creatures/my-beast/rig.json
 * ```
 */
export async function acceptProposal(opts: AcceptProposalOptions): Promise<string> {
  const from = proposalPaths(opts.creature, opts.runs).rig;
  const to = creaturePaths(opts.creature).rigJson;
  if (!existsSync(from)) {
    throw new Error(
      `rig accept: ${from}: no proposal; run \`mocap rig --propose --creature ${opts.creature}\` first.`,
    );
  }
  if (existsSync(to) && !opts.force) {
    throw new Error(`rig accept: ${to}: the creature already has a rig.json; pass --force to replace it.`);
  }
  const rig = await readJsonFile('rig accept', from, RigJson);
  await atomicWriteJson(to, rig);
  return to;
}

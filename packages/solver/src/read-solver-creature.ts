import path from 'node:path';
import { CreatureJson, type Layout, parseFileData, resolveCreature } from '@mocap/layout';

/** A creature resolved for the solver: its directory, layout, creature.json and solver info. */
export interface SolverCreature {
  dir: string | null;
  name: string;
  layout: Layout;
  json: CreatureJson | null;
}

/** Resolves `--creature` / `MOCAP_CREATURE` and validates its creature.json. */
export async function readSolverCreature(
  op: string,
  creature: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<SolverCreature> {
  const r = await resolveCreature({ creature, env, cwd });
  if (!r.dir || !r.json) return { dir: null, name: 'default', layout: r.layout, json: null };
  const file = path.join(r.dir, 'creature.json');
  const json = parseFileData(op, file, r.json, CreatureJson);
  return { dir: r.dir, name: json.name, layout: r.layout, json };
}

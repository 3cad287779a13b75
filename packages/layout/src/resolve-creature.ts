import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FileError, fileErrorFromZod } from './file-error.js';
import { DEFAULT_LAYOUT, Layout } from './layout.js';

/** Where to look for the creature: the `--creature` flag, then `MOCAP_CREATURE`. */
export interface ResolveCreatureOptions {
  /** The `--creature DIR` value, if given. */
  creature?: string | undefined;
  /** Environment to read `MOCAP_CREATURE` from. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Directory relative paths resolve against. @default process.cwd() */
  cwd?: string;
}

/** A resolved creature: its directory (or null for the default) and its layout. */
export interface ResolvedCreature {
  dir: string | null;
  /** The raw creature.json content, validated only for `layout` here. */
  json: Record<string, unknown> | null;
  layout: Layout;
}

/** Picks the creature directory from `--creature`, then `MOCAP_CREATURE`; null when neither is set. */
export function creatureDir(opts: ResolveCreatureOptions = {}): string | null {
  const env = opts.env ?? process.env;
  const dir = opts.creature ?? (env.MOCAP_CREATURE || undefined);
  return dir ? path.resolve(opts.cwd ?? process.cwd(), dir) : null;
}

/**
 * Resolves the creature and its layout. Without `--creature` or `MOCAP_CREATURE`, the wolf's layout.
 *
 * ```ts
 * const { layout } = await resolveCreature({ creature: 'creatures/wolf' });
 * ```
 */
export async function resolveCreature(opts: ResolveCreatureOptions = {}): Promise<ResolvedCreature> {
  const dir = creatureDir(opts);
  if (!dir) return { dir: null, json: null, layout: DEFAULT_LAYOUT };
  const file = path.join(dir, 'creature.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new FileError(
      `creature: ${file}: cannot read (${(err as NodeJS.ErrnoException).code}).`,
      file,
      '',
      {
        cause: err,
      },
    );
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new FileError(`creature: ${file}: not valid JSON (${(err as Error).message}).`, file, '', {
      cause: err,
    });
  }
  const parsed = Layout.safeParse(json.layout ?? {});
  if (!parsed.success) {
    throw fileErrorFromZod('creature', file, json, prefixIssues(parsed.error, 'layout'));
  }
  return { dir, json, layout: parsed.data };
}

function prefixIssues<E extends { issues: { path: PropertyKey[] }[] }>(error: E, key: string): E {
  for (const i of error.issues) i.path.unshift(key);
  return error;
}

import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BlenderRunOptions, runBlenderScript } from '@mocap/blender-bridge';
import { creaturePaths } from '@mocap/layout';
import { z } from 'zod';

const SCRIPT = fileURLToPath(new URL('../python/export_prepped.py', import.meta.url));
const ExportResult = z.object({ vertices: z.number().int().nonnegative() });

/** Where {@link preppedGlb} writes the prepped mesh: `<runs>/propose/prepped.glb`. */
export function preppedGlbPath(creature: string, runs?: string): string {
  return path.join(creaturePaths(creature, runs ?? path.join(creature, 'runs')).propose, 'prepped.glb');
}

/**
 * The prep stage's mesh (`runs/prep/static.blend`) as a GLB that glTF-Transform reads: exported
 * by Blender (world transform applied, +Y up) and kept while newer than static.blend. Returns its
 * path. Throws, naming the file, when prep has not run.
 *
 * ```ts
 * const glb = await preppedGlb('creatures/fox'); // creatures/fox/runs/propose/prepped.glb
 * ```
 */
export async function preppedGlb(
  creature: string,
  opts: BlenderRunOptions & { runs?: string | undefined } = {},
): Promise<string> {
  const runs = opts.runs ?? creaturePaths(creature).runs;
  const blend = path.join(runs, 'prep', 'static.blend');
  const out = preppedGlbPath(creature, runs);
  if (!existsSync(blend)) {
    throw new Error(
      `rig propose: ${blend}: no prepped mesh; run \`mocap prep --creature ${creature}\` first.`,
    );
  }
  if (existsSync(out)) {
    const [glb, src] = await Promise.all([stat(out), stat(blend)]);
    if (glb.mtimeMs >= src.mtimeMs) return out;
  }
  await runBlenderScript(SCRIPT, { static: path.resolve(blend), out: path.resolve(out) }, ExportResult, {
    timeoutMs: 120_000,
    ...opts,
  });
  return out;
}

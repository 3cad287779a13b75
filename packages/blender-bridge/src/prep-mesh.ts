import { existsSync } from 'node:fs';
import path from 'node:path';
import { CreatureJson, creaturePaths, readJsonFile, withOutputLock } from '@mocap/layout';
import { z } from 'zod';
import { checkGlb } from './check-file.js';
import { cleanTemps } from './clean-temps.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';

/** What prep_mesh reports. */
export const PrepResult = z.object({
  vertices: z.number().int().positive(),
  faces: z.number().int().min(0),
  /** The uniform scale applied to the raw model. */
  scale: z.number().positive(),
  /** Size after prep (x, y, z), metres. */
  dimensions: z.tuple([z.number(), z.number(), z.number()]),
});
export type PrepResult = z.output<typeof PrepResult>;

/** Options of {@link prepMesh}. */
export interface PrepMeshOptions extends BlenderRunOptions {
  /** The creature folder (creature.json, model.glb). */
  creature: string;
  /** The model. @default `<creature>/model.glb` */
  model?: string | undefined;
  /** Output folder for stage files. @default `<creature>/runs` */
  runs?: string | undefined;
}

/**
 * prep: imports model.glb and writes `runs/prep/static.blend`: one mesh at real size
 * (creature.json `prep`), facing -Y, centred on x = y = 0, lowest point on z = 0. When the
 * creature has no rig.json, the mesh keeps the glb's skin weights and the transform, for
 * {@link buildRig} to take the rig from the skin. `runs/prep` is locked meanwhile (lockOutput):
 * a second run is refused, naming the first.
 *
 * ```ts
 * const r = await prepMesh({ creature: 'creatures/wolf' });
 * ```
 */
export async function prepMesh(opts: PrepMeshOptions): Promise<PrepResult & { file: string }> {
  const dir = path.dirname(creaturePaths(opts.creature, opts.runs).staticBlend);
  return withOutputLock(dir, { operation: 'prep', signal: opts.signal }, () => prepInto(opts));
}

async function prepInto(opts: PrepMeshOptions): Promise<PrepResult & { file: string }> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const creature = await readJsonFile('prep', paths.creatureJson, CreatureJson);
  const model = opts.model ?? paths.model;
  await checkGlb('prep', model);
  const r = await runBlenderScript(
    'prep_mesh.py',
    // Without rig.json the rig comes from the glb's skin, so its weights stay on the mesh.
    { model, out: paths.staticBlend, prep: creature.prep, keep_skin: !existsSync(paths.rigJson) },
    PrepResult,
    opts,
  ).finally(() => cleanTemps(path.dirname(paths.staticBlend)));
  return { ...r, file: paths.staticBlend };
}

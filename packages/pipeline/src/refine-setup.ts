import { existsSync } from 'node:fs';
import { riggedGlb } from '@mocap/blender-bridge';
import { creaturePaths, FileError, RigInfo, readJsonFile } from '@mocap/layout';
import type { DetectOptions } from '@mocap/reader';
import type { SolveContext } from '@mocap/solver';

/** Whether detect refines its heatmap peaks with the creature's skinned mesh (stage 2). */
export type RefineMode = 'auto' | 'on' | 'off';

/**
 * detect's `refine` options for a creature: its rigged glTF (exported from rigged.blend by
 * {@link riggedGlb} when missing or stale), rig_info.json and creature.json's paint groups.
 * `auto` refines when the creature is rigged, `on` requires it (a clear error otherwise), `off`
 * never refines (undefined).
 */
export async function refineSetup(
  op: string,
  ctx: SolveContext,
  dir: string,
  mode: RefineMode,
  opts: { env?: NodeJS.ProcessEnv | undefined; signal?: AbortSignal | undefined } = {},
): Promise<NonNullable<DetectOptions['refine']> | undefined> {
  if (mode === 'off') return undefined;
  const p = creaturePaths(ctx.creature.dir ?? dir);
  const rigged = existsSync(p.riggedBlend) && existsSync(p.rigInfo);
  if (!rigged) {
    if (mode === 'auto') return undefined;
    throw new FileError(
      `${op}: ${p.riggedBlend}: refinement needs the rigged creature (its skinned mesh); run \`mocap prep\` then \`mocap rig\` first, or pass --no-refine.`,
      p.riggedBlend,
      '',
    );
  }
  const glb = await riggedGlb(p.dir, opts);
  const info = await readJsonFile(op, p.rigInfo, RigInfo);
  const length = new Map(info.bones.map((b) => [b.name, b.length]));
  const keypoints = info.keypoints.map((k) => ({ ...k, length: length.get(k.bone) ?? 0 }));
  const paint = (ctx.creature.json?.paint ?? []).map((g) => ({
    name: g.name,
    bones: [...g.bones],
    colour: [g.colour[0], g.colour[1], g.colour[2]] as [number, number, number],
  }));
  return { glb, keypoints, paint };
}

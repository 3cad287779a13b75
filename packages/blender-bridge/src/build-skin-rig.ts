import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  atomicWriteJson,
  boneStems,
  CreatureJson,
  creaturePaths,
  FileError,
  type Keypoint,
  type LimitsDeg,
  limitsFor,
  parseFileData,
  RigInfo,
  readJsonFile,
} from '@mocap/layout';
import { z } from 'zod';
import { checkGlb, checkReadable } from './check-file.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';
import { readSkinSkeleton, type SkinSkeleton } from './skin-skeleton.js';

/** Limits of a skin-rig bone creature.json's `limits_deg` does not cover: wide, not free. */
export const SKIN_DEFAULT_LIMITS: LimitsDeg = [
  [-45, 45],
  [-45, 45],
  [-45, 45],
];

/** Influences per vertex kept from the skin (glTF's JOINTS_0 holds four). */
const MAX_INFLUENCES = 4;

const SkinRigResult = z.object({
  info: z.unknown(),
  painted: z.record(z.string(), z.number().int()),
  vertices: z.number().int(),
  missing_groups: z.array(z.string()),
});

/** Options of {@link buildSkinRig}. */
export interface BuildSkinRigOptions extends BlenderRunOptions {
  creature: string;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
}

/** What {@link buildSkinRig} returns (what buildRig returns). */
export interface BuildSkinRigResult {
  blend: string;
  rigInfo: string;
  info: RigInfo;
  /** Vertices painted per creature.json paint group. */
  painted: Record<string, number>;
}

/** A skin rig's keypoints: every bone's head (named after the bone), and each leaf's tail (`<bone>_end`). */
export function skinKeypoints(skeleton: Pick<SkinSkeleton, 'joints'>): Keypoint[] {
  const parents = new Set(skeleton.joints.map((j) => j.parent));
  return skeleton.joints.flatMap((j): Keypoint[] => [
    { name: j.name, bone: j.name, end: 'head' },
    ...(parents.has(j.name) ? [] : [{ name: `${j.name}_end`, bone: j.name, end: 'tail' as const }]),
  ]);
}

/**
 * rig, for a creature without rig.json whose model.glb is skinned: the armature from the skin's
 * joints (bind-pose heads carried through prep's transform, see rig_from_skin.py), the skin's own
 * weights, creature.json's limits (`limits_deg`, else {@link SKIN_DEFAULT_LIMITS}) and paint ->
 * `runs/rigged/rigged.blend` + `rig_info.json`, as {@link buildRig} writes them. A glb with no
 * skin is a FileError naming it and the missing rig.json.
 *
 * ```ts
 * const { info } = await buildSkinRig({ creature: 'creatures/fox-rigged' });
 * ```
 */
export async function buildSkinRig(opts: BuildSkinRigOptions): Promise<BuildSkinRigResult> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const creature = await readJsonFile('rig', paths.creatureJson, CreatureJson);
  await checkGlb('rig', paths.model);
  const skeleton = await readSkinSkeleton('rig', paths.model);
  if (!skeleton) {
    throw new FileError(
      `rig: ${paths.model} has no skin and ${paths.rigJson} does not exist: write rig.json, or give a skinned glb.`,
      paths.rigJson,
    );
  }
  const bones = new Set(skeleton.joints.map((j) => j.name));
  const check = (field: string, b: string) => {
    if (!bones.has(b))
      throw new FileError(
        `rig: ${paths.creatureJson}: ${field}: "${b}" is not a joint of ${paths.model}'s skin.`,
        paths.creatureJson,
        field,
      );
  };
  creature.paint.forEach((g, i) => {
    g.bones.forEach((b, j) => {
      check(`paint[${i}].bones[${j}]`, b);
    });
  });
  const table = creature.limits_deg ?? {};
  const stems = new Set([...bones].flatMap(boneStems));
  for (const k of Object.keys(table)) {
    if (!stems.has(k))
      throw new FileError(
        `rig: ${paths.creatureJson}: limits_deg.${k}: "${k}" names no joint or stem of ${paths.model}'s skin.`,
        paths.creatureJson,
        `limits_deg.${k}`,
      );
  }
  await checkReadable('rig', paths.staticBlend, 'prepped mesh (run `mocap prep` first)');
  const limits = Object.fromEntries(
    skeleton.joints.map((j) => [j.name, limitsFor({ limits_deg: table }, j.name) ?? SKIN_DEFAULT_LIMITS]),
  );
  const tmpBlend = path.join(path.dirname(paths.riggedBlend), `rigged.tmp-${process.pid}.blend`);
  await mkdir(path.dirname(tmpBlend), { recursive: true });
  try {
    const r = await runBlenderScript(
      'rig_from_skin.py',
      {
        static: paths.staticBlend,
        out_blend: tmpBlend,
        joints: skeleton.joints,
        limits,
        keypoints: skinKeypoints(skeleton),
        paint: creature.paint,
        max_influences: MAX_INFLUENCES,
      },
      SkinRigResult,
      opts,
    );
    const info = parseFileData('rig', paths.rigInfo, r.info, RigInfo);
    await rename(tmpBlend, paths.riggedBlend);
    await atomicWriteJson(paths.rigInfo, info);
    return { blend: paths.riggedBlend, rigInfo: paths.rigInfo, info, painted: r.painted };
  } finally {
    await rm(tmpBlend, { force: true });
  }
}

import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  atomicWriteJson,
  CreatureJson,
  creaturePaths,
  FileError,
  type LimitsDeg,
  limitsFor,
  parseFileData,
  RigInfo,
  RigJson,
  readJsonFile,
  withOutputLock,
} from '@mocap/layout';
import { z } from 'zod';
import { buildSkinRig } from './build-skin-rig.js';
import { checkReadable } from './check-file.js';
import { rigKeypoints } from './rig-keypoints.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';

/** Limits of a bone no `limits_deg` entry covers: free. */
export const FREE_LIMITS: LimitsDeg = [
  [-180, 180],
  [-180, 180],
  [-180, 180],
];

const RigResult = z.object({
  info: z.unknown(),
  painted: z.record(z.string(), z.number().int()),
  vertices: z.number().int(),
});

/** Options of {@link buildRig}. */
export interface BuildRigOptions extends BlenderRunOptions {
  creature: string;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
  /** `auto`: bone heat, nearest-bone weights where it leaves vertices unweighted; `nearest`: only those. @default 'auto' */
  weights?: 'auto' | 'nearest';
}

/** What {@link buildRig} returns. */
export interface BuildRigResult {
  blend: string;
  rigInfo: string;
  info: RigInfo;
  /** Vertices painted per creature.json paint group. */
  painted: Record<string, number>;
}

/**
 * rig: the armature from rig.json, the mesh skinned to it, limb paint (`legpaint`) from
 * creature.json -> `runs/rigged/rigged.blend` + `runs/rigged/rig_info.json`. Both are written
 * only when everything succeeded. Without rig.json, the rig comes from model.glb's skin
 * ({@link buildSkinRig}). `runs/rigged` is locked meanwhile (lockOutput): a second run is
 * refused, naming the first.
 *
 * ```ts
 * const { info } = await buildRig({ creature: 'creatures/wolf' });
 * ```
 */
export async function buildRig(opts: BuildRigOptions): Promise<BuildRigResult> {
  const dir = path.dirname(creaturePaths(opts.creature, opts.runs).riggedBlend);
  return withOutputLock(dir, { operation: 'rig', signal: opts.signal }, () => buildRigInto(opts));
}

async function buildRigInto(opts: BuildRigOptions): Promise<BuildRigResult> {
  const paths = creaturePaths(opts.creature, opts.runs);
  if (!existsSync(paths.rigJson)) return buildSkinRig(opts);
  const creature = await readJsonFile('rig', paths.creatureJson, CreatureJson);
  const rig = await readJsonFile('rig', paths.rigJson, RigJson);
  const bones = new Set(rig.bones.map((b) => b[0]));
  creature.paint.forEach((g, i) => {
    g.bones.forEach((b, j) => {
      if (!bones.has(b)) {
        throw new FileError(
          `rig: ${paths.creatureJson}: paint[${i}].bones[${j}]: "${b}" is not a bone of ${paths.rigJson}.`,
          paths.creatureJson,
          `paint[${i}].bones[${j}]`,
        );
      }
    });
  });
  await checkReadable('rig', paths.staticBlend, 'prepped mesh (run `mocap prep` first)');
  const limits = Object.fromEntries(rig.bones.map(([n]) => [n, limitsFor(rig, n) ?? FREE_LIMITS]));
  const tmpBlend = path.join(path.dirname(paths.riggedBlend), `rigged.tmp-${process.pid}.blend`);
  await mkdir(path.dirname(tmpBlend), { recursive: true });
  try {
    const r = await runBlenderScript(
      'build_rig.py',
      {
        static: paths.staticBlend,
        out_blend: tmpBlend,
        rig,
        limits,
        keypoints: rigKeypoints(rig),
        paint: creature.paint,
        weights: opts.weights ?? 'auto',
      },
      RigResult,
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

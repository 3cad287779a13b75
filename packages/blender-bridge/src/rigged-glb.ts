import { existsSync } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  atomicWriteJson,
  creaturePaths,
  emptySyncReport,
  MotionJson,
  RigInfo,
  readJsonFile,
} from '@mocap/layout';
import { applyMotion } from './apply-motion.js';
import { PYTHON_DIR } from './run-blender-script.js';

// A glb older than the scripts that export it is stale too (the paint export changed, issue 19).
const EXPORT_SCRIPTS = ['apply_motion.py', 'gltf_colours.py'];

/** Options of {@link riggedGlb}. */
export interface RiggedGlbOptions {
  /** Re-export even when an up-to-date rigged.glb exists. @default false */
  force?: boolean;
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
}

/** Where {@link riggedGlb} writes the creature's rigged glTF: `<runs>/rigged/rigged.glb`. */
export function riggedGlbPath(creature: string): string {
  return creaturePaths(creature).riggedGlb;
}

/**
 * The rigged creature as a glTF (skinned mesh, one joint node per bone, rest pose), which the
 * stage-2 refinement reads (`readSkinnedMesh`): exported by Blender from rigged.blend through
 * apply_motion with a two-frame rest motion, then moved into place atomically. Kept while it is
 * newer than rigged.blend and the export scripts. Returns its path.
 *
 * ```ts
 * const glb = await riggedGlb('creatures/wolf'); // creatures/wolf/runs/rigged/rigged.glb
 * ```
 */
export async function riggedGlb(creature: string, opts: RiggedGlbOptions = {}): Promise<string> {
  const p = creaturePaths(creature);
  const out = riggedGlbPath(creature);
  if (!existsSync(p.riggedBlend) || !existsSync(p.rigInfo)) {
    throw new Error(`rigged glTF: ${p.riggedBlend}: missing; run \`mocap prep\` then \`mocap rig\` first.`);
  }
  if (!opts.force && existsSync(out)) {
    const inputs = [p.riggedBlend, ...EXPORT_SCRIPTS.map((f) => path.join(PYTHON_DIR, f))];
    const [glb, ...stats] = await Promise.all([out, ...inputs].map((f) => stat(f)));
    if (stats.every((s) => glb!.mtimeMs >= s.mtimeMs)) return out;
  }
  const info = await readJsonFile('rigged glTF', p.rigInfo, RigInfo);
  const bones = info.bones.map((b) => b.name);
  const frames = 2;
  const rows = <T>(f: () => T) => Array.from({ length: frames }, f);
  const motion = MotionJson.parse({
    fps: 30,
    bones,
    names: info.keypoints.map((k) => k.name),
    trans: rows(() => [0, 0, 0]),
    root_quat: rows(() => [1, 0, 0, 0]),
    euler: rows(() => bones.map(() => [0, 0, 0])),
    joints: rows(() => info.keypoints.map(() => [0, 0, 0])),
    reproj_px: { mean: 0, front: 0, side: 0, per_frame: rows(() => 0) },
    sync: emptySyncReport(),
  });
  const work = await mkdtemp(path.join(path.dirname(out), '.rigged-glb-'));
  try {
    const motionFile = path.join(work, 'motion.json');
    await atomicWriteJson(motionFile, motion);
    const r = await applyMotion({
      creature,
      motion: motionFile,
      out: work,
      renders: [],
      formats: { glb: true, bvh: false, fbx: false },
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    await rename(r.glb as string, out);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return out;
}

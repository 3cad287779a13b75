import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  CreatureJson,
  creaturePaths,
  FileError,
  MotionJson,
  RigInfo,
  readJsonFile,
  resolveCreature,
} from '@mocap/layout';
import { z } from 'zod';
import { checkReadable } from './check-file.js';
import { cleanTemps } from './clean-temps.js';
import { JointsJson } from './joints-json.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';
import { validateGltf } from './validate-gltf.js';

/** Options of {@link applyMotion}. */
export interface ApplyMotionOptions extends BlenderRunOptions {
  creature: string;
  /** The motion.json to apply. */
  motion: string;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
  /** Output folder. @default `<runs>/apply/<name of the motion's folder>` */
  out?: string | undefined;
  /** Frames to render from both views: `all`, none (`[]`) or a list. @default 'all' */
  renders?: 'all' | number[];
  /** Workbench anti-aliasing of the renders. @default '8' */
  aa?: string;
  /**
   * Also render each rendered frame from creature.json's 3/4 `camera` (perspective) as
   * `<t>_showcase.png`, this size in px; creature.json must have a `camera`. @default none
   */
  showcase?: { width: number; height: number };
  /** Which exports to write. @default { glb: true, bvh: true, fbx: true } */
  formats?: { glb?: boolean; bvh?: boolean; fbx?: boolean };
}

/** What {@link applyMotion} returns: the files written (null where not asked for). */
export interface ApplyMotionResult {
  dir: string;
  joints: string;
  glb: string | null;
  bvh: string | null;
  fbx: string | null;
  /** Folder of `<t>_front.png` / `<t>_side.png` (and `<t>_showcase.png`), null without renders. */
  renders: string | null;
  frames: number;
}

/**
 * apply: keys the rig from motion.json (root_quat, trans, euler by motion.json's conventions) and
 * writes `joints.json` (the joints Blender computes), per-frame renders of both views,
 * `animation.glb` (checked by the Khronos validator), `animation.bvh` and `animation.fbx`.
 *
 * ```ts
 * const r = await applyMotion({ creature: 'creatures/wolf', motion: 'runs/wolf/trot/motion.json' });
 * ```
 */
export async function applyMotion(opts: ApplyMotionOptions): Promise<ApplyMotionResult> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const motion = await readJsonFile('apply', opts.motion, MotionJson);
  const info = await readJsonFile('apply', paths.rigInfo, RigInfo);
  const { layout } = await resolveCreature({ creature: opts.creature });
  let showcase: { camera: unknown; size: [number, number] } | null = null;
  if (opts.showcase) {
    const { width, height } = opts.showcase;
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
      throw new TypeError(
        `applyMotion: expected showcase width and height in whole px, got ${width} x ${height}.`,
      );
    }
    const creature = await readJsonFile('apply', paths.creatureJson, CreatureJson);
    if (!creature.camera) {
      throw new FileError(
        `apply: ${paths.creatureJson}: camera: missing (the showcase render needs the 3/4 camera).`,
        paths.creatureJson,
        'camera',
      );
    }
    showcase = { camera: creature.camera, size: [width, height] };
  }
  await checkReadable('apply', paths.riggedBlend, 'rigged creature (run `mocap rig` first)');
  const rigBones = new Set(info.bones.map((b) => b.name));
  motion.bones.forEach((b, i) => {
    if (!rigBones.has(b)) {
      throw new FileError(
        `apply: ${opts.motion}: bones[${i}]: "${b}" is not a bone of ${paths.rigInfo}.`,
        opts.motion,
        `bones[${i}]`,
      );
    }
  });
  const T = motion.trans.length;
  const dir = opts.out ?? path.join(paths.apply, path.basename(path.dirname(path.resolve(opts.motion))));
  const frames = opts.renders === undefined || opts.renders === 'all' ? [...Array(T).keys()] : opts.renders;
  for (const f of frames) {
    if (!Number.isInteger(f) || f < 0 || f >= T) {
      throw new TypeError(`applyMotion: expected render frames in 0..${T - 1}, got ${f}.`);
    }
  }
  const formats = { glb: true, bvh: true, fbx: true, ...opts.formats };
  const out = {
    joints: path.join(dir, 'joints.json'),
    glb: formats.glb ? path.join(dir, 'animation.glb') : null,
    bvh: formats.bvh ? path.join(dir, 'animation.bvh') : null,
    fbx: formats.fbx ? path.join(dir, 'animation.fbx') : null,
  };
  const renders = frames.length ? path.join(dir, 'renders') : null;
  await mkdir(renders ?? dir, { recursive: true });
  const run = runBlenderScript(
    'apply_motion.py',
    {
      rigged: paths.riggedBlend,
      motion,
      info,
      layout,
      ...out,
      renders: renders ? { dir: renders, frames, aa: opts.aa ?? '8', showcase } : null,
    },
    z.object({ frames: z.number().int() }),
    // Scales with the work unless given: 2 min plus 0.5 s a frame and 5 s a rendered frame.
    { ...opts, timeoutMs: opts.timeoutMs ?? 120_000 + T * 500 + frames.length * 5_000 },
  );
  try {
    await run;
  } finally {
    await cleanTemps(dir);
    if (renders) await cleanTemps(renders);
  }
  await readJsonFile('apply', out.joints, JointsJson);
  if (out.glb) {
    const v = await validateGltf(out.glb);
    if (v.errors > 0) {
      const first = v.messages[0];
      throw new Error(
        `apply: ${out.glb}: the glTF validator found ${v.errors} errors (first: ${first?.code} at ${first?.pointer}: ${first?.message}).`,
      );
    }
  }
  return { dir, ...out, renders, frames: T };
}

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
  withOutputLock,
} from '@mocap/layout';
import { z } from 'zod';
import { checkReadable } from './check-file.js';
import { cleanTemps } from './clean-temps.js';
import { JointsJson } from './joints-json.js';
import { type BlenderRunOptions, runBlenderScript } from './run-blender-script.js';
import { validateGltf } from './validate-gltf.js';

/** A view apply can render a frame from: the layout's two orthographic views, or the 3/4 showcase. */
export type ApplyView = 'front' | 'side' | 'showcase';

/** Options of {@link applyMotion}. */
export interface ApplyMotionOptions extends BlenderRunOptions {
  creature: string;
  /** The motion.json to apply. */
  motion: string;
  /** @default `<creature>/runs` */
  runs?: string | undefined;
  /** Output folder. @default `<runs>/apply/<name of the motion's folder>` */
  out?: string | undefined;
  /** Frames to render: `all`, none (`[]`) or a list. @default [] (no renders) */
  renders?: 'all' | number[];
  /**
   * Which images a rendered frame gets: `<t>_front.png`, `<t>_side.png` (the layout's views) and
   * `<t>_showcase.png` (needs `showcase`). @default ['front', 'side'], plus 'showcase' with `showcase`
   */
  views?: ApplyView[];
  /** Workbench anti-aliasing of the front and side renders. @default '8' */
  aa?: string;
  /**
   * The 3/4 showcase render from creature.json's `camera` (perspective), this size in px, over
   * the wall colour; creature.json must have a `camera`. `aa`: its Workbench anti-aliasing (any
   * other than OFF costs several times the render here, see docs/benchmarks.md). @default none; aa 'OFF'
   */
  showcase?: { width: number; height: number; aa?: string };
  /** Which exports to write. @default { glb: true, bvh: true, fbx: true } */
  formats?: { glb?: boolean; bvh?: boolean; fbx?: boolean };
  /**
   * Blender processes sharing the renders (each renders one run of the frames; the first also
   * writes joints.json and the exports); progress events carry `process` (0-based) and the
   * counts summed over all. @default 1
   */
  processes?: number;
}

/** What {@link applyMotion} returns: the files written (null where not asked for). */
export interface ApplyMotionResult {
  dir: string;
  joints: string;
  glb: string | null;
  bvh: string | null;
  fbx: string | null;
  /** Folder of `<t>_<view>.png` for each rendered frame and view, null without renders. */
  renders: string | null;
  /** The views rendered ([] without renders). */
  views: ApplyView[];
  frames: number;
}

const VIEWS: readonly ApplyView[] = ['front', 'side', 'showcase'];
const RunResult = z.object({ frames: z.number().int() });

/** Splits sorted frames into `n` runs of consecutive list entries, as even as can be. */
function split(frames: number[], n: number): number[][] {
  const parts: number[][] = [];
  for (let p = 0; p < n; p++) {
    const part = frames.slice(Math.round((p * frames.length) / n), Math.round(((p + 1) * frames.length) / n));
    if (part.length || p === 0) parts.push(part);
  }
  return parts;
}

/**
 * apply: keys the rig from motion.json (root_quat, trans, euler by motion.json's conventions) and
 * writes, first, `joints.json` (the joints Blender computes), `animation.glb` (checked by the
 * Khronos validator), `animation.bvh` and `animation.fbx` (those `formats` asks for), then only
 * the renders asked for (`renders` frames x `views`), each view rendered as one animation per run
 * of frames, shared among `processes` Blender processes; each render is reported (`render`
 * progress with `view` and `frame`) once it lies complete under its final name. Every file lands
 * under its final name only once complete; a failure or an abort (`signal`) kills Blender and
 * removes its temporary files. The output folder is locked while apply writes it (lockOutput):
 * a second run into it is refused with the first run's pid, host, command and start.
 *
 * ```ts
 * const r = await applyMotion({ creature: 'creatures/wolf', motion: 'runs/wolf/trot/motion.json' });
 * ```
 */
export async function applyMotion(opts: ApplyMotionOptions): Promise<ApplyMotionResult> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const dir = opts.out ?? path.join(paths.apply, path.basename(path.dirname(path.resolve(opts.motion))));
  return withOutputLock(dir, { operation: 'apply', signal: opts.signal }, () => applyInto(opts, dir));
}

async function applyInto(opts: ApplyMotionOptions, dir: string): Promise<ApplyMotionResult> {
  const paths = creaturePaths(opts.creature, opts.runs);
  const motion = await readJsonFile('apply', opts.motion, MotionJson);
  const info = await readJsonFile('apply', paths.rigInfo, RigInfo);
  const { layout } = await resolveCreature({ creature: opts.creature });
  const views =
    opts.views ?? (['front', 'side', ...(opts.showcase ? ['showcase' as const] : [])] as ApplyView[]);
  for (const v of views) {
    if (!VIEWS.includes(v)) {
      throw new TypeError(`applyMotion: expected views among ${VIEWS.join(', ')}, got "${v}".`);
    }
  }
  const processes = opts.processes ?? 1;
  if (!Number.isInteger(processes) || processes < 1) {
    throw new TypeError(`applyMotion: expected processes to be a positive integer, got ${processes}.`);
  }
  let showcase: { camera: unknown; size: [number, number]; aa: string } | null = null;
  if (views.includes('showcase')) {
    if (!opts.showcase) {
      throw new TypeError('applyMotion: the showcase view needs options.showcase (its width and height).');
    }
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
    showcase = { camera: creature.camera, size: [width, height], aa: opts.showcase.aa ?? 'OFF' };
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
  const asked = opts.renders === 'all' ? [...Array(T).keys()] : (opts.renders ?? []);
  for (const f of asked) {
    if (!Number.isInteger(f) || f < 0 || f >= T) {
      throw new TypeError(`applyMotion: expected render frames in 0..${T - 1}, got ${f}.`);
    }
  }
  const frames = views.length ? [...new Set(asked)].sort((a, b) => a - b) : [];
  const formats = { glb: true, bvh: true, fbx: true, ...opts.formats };
  const out = {
    joints: path.join(dir, 'joints.json'),
    glb: formats.glb ? path.join(dir, 'animation.glb') : null,
    bvh: formats.bvh ? path.join(dir, 'animation.bvh') : null,
    fbx: formats.fbx ? path.join(dir, 'animation.fbx') : null,
  };
  const renders = frames.length ? path.join(dir, 'renders') : null;
  await mkdir(renders ?? dir, { recursive: true });
  const parts = split(frames, Math.min(processes, Math.max(1, frames.length)));
  // One failing process stops the others; the caller's signal stops all.
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  const done = parts.map(() => 0);
  const totals = parts.map(() => 0);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const runs = parts.map((part, p) =>
    runBlenderScript(
      'apply_motion.py',
      {
        rigged: paths.riggedBlend,
        motion,
        info,
        layout,
        ...(p === 0 ? out : { joints: null, glb: null, bvh: null, fbx: null }),
        renders:
          renders && part.length ? { dir: renders, frames: part, views, aa: opts.aa ?? '8', showcase } : null,
      },
      RunResult,
      {
        ...opts,
        signal,
        // Scales with the work unless given: 2 min plus 0.5 s a frame and 2 s a rendered image.
        timeoutMs: opts.timeoutMs ?? 120_000 + T * 500 + part.length * views.length * 2_000,
        onProgress: (ev) => {
          done[p] = ev.done;
          totals[p] = ev.total;
          opts.onProgress?.({ ...ev, process: p, done: sum(done), total: sum(totals) });
        },
      },
    ).catch((err: unknown) => {
      stop.abort();
      throw err;
    }),
  );
  const settled = await Promise.allSettled(runs);
  // Only apply's own temporaries: capture encodes showcase.mp4 into the same folder meanwhile.
  await cleanTemps(dir, ['joints', 'animation']);
  if (renders) await cleanTemps(renders, VIEWS);
  // The first process that failed for its own reason, not because another one stopped it.
  const failures = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  const own = failures.find((e) => !(e as { cancelled?: boolean }).cancelled) ?? failures[0];
  if (failures.length) throw opts.signal?.aborted ? failures[0] : own;
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
  return { dir, ...out, renders, views: frames.length ? views : [], frames: T };
}

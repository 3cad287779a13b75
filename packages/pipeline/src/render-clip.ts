import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { applyMotion, JointsJson } from '@mocap/blender-bridge';
import { atomicWriteJson, type MotionJson, readJsonFile, resolveCreature } from '@mocap/layout';
import { composeFrame, encodeVideo, readPng } from '@mocap/media';

/** Options of {@link renderMotionClip}. */
export interface RenderClipOptions {
  /** The creature folder (rigged by `mocap rig`). */
  creature: string;
  /** The motion to key onto the rig. */
  motion: MotionJson;
  /** Where to write the two-view clip (H.264 .mp4). */
  out: string;
  /** Operation named in errors. @default 'render' */
  op?: string;
  /** Workbench anti-aliasing of the renders. @default '8' */
  aa?: string;
  /** Kill Blender after this many ms. @default 1_800_000 */
  timeoutMs?: number;
  /** Environment (for `BLENDER`). @default process.env */
  env?: NodeJS.ProcessEnv | undefined;
  signal?: AbortSignal | undefined;
  /** Blender's progress events. */
  onProgress?: ((p: unknown) => void) | undefined;
}

/** What {@link renderMotionClip} returns: the frame count and Blender's joints in the motion's order. */
export interface RenderClipResult {
  frames: number;
  /** T x K x 3 world metres, `motion.names` order. */
  joints: [number, number, number][][];
}

/**
 * Renders a motion to a two-view clip of the layout: @mocap/blender-bridge's `applyMotion` keys
 * the rigged creature and renders both views of every frame; @mocap/media composes each
 * front | side pair into one frame and encodes the clip at the motion's fps. The joints are
 * Blender's own (`joints.json`), so they are the truth of what the clip shows.
 *
 * ```ts
 * const { joints } = await renderMotionClip({ creature: 'creatures/wolf', motion, out: 'clip.mp4' });
 * ```
 */
export async function renderMotionClip(opts: RenderClipOptions): Promise<RenderClipResult> {
  const op = opts.op ?? 'render';
  const work = await mkdtemp(path.join(path.dirname(opts.out), '.render-'));
  try {
    const motionFile = path.join(work, 'motion.json');
    await atomicWriteJson(motionFile, opts.motion);
    const r = await applyMotion({
      creature: opts.creature,
      motion: motionFile,
      out: work,
      renders: 'all',
      aa: opts.aa ?? '8',
      formats: { glb: false, bvh: false, fbx: false },
      timeoutMs: opts.timeoutMs ?? 1_800_000,
      ...(opts.env ? { env: opts.env } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    });
    const { layout } = await resolveCreature({ creature: opts.creature });
    const renders = r.renders as string;
    async function* frames() {
      for (let t = 0; t < r.frames; t++) {
        const n = String(t).padStart(5, '0');
        const front = await readPng(path.join(renders, `${n}_front.png`));
        const side = await readPng(path.join(renders, `${n}_side.png`));
        yield composeFrame(front, side, layout);
      }
    }
    await encodeVideo(opts.out, frames(), {
      fps: opts.motion.fps,
      preset: 'veryfast',
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const j = await readJsonFile(op, r.joints, JointsJson);
    const index = new Map(j.names.map((n, i) => [n, i]));
    const order = opts.motion.names.map((n) => {
      const i = index.get(n);
      if (i === undefined) throw new Error(`${op}: ${r.joints}: has no joint "${n}" of the motion.`);
      return i;
    });
    const joints = j.joints.map((row) =>
      order.map((i) => [...(row[i] as [number, number, number])] as [number, number, number]),
    );
    return { frames: r.frames, joints };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

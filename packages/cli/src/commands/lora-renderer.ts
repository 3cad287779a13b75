import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { applyMotion, JointsJson } from '@mocap/blender-bridge';
import type { ClipRenderer } from '@mocap/fal';
import { atomicWriteJson, readJsonFile, resolveCreature } from '@mocap/layout';
import { composeFrame, encodeVideo, readPng } from '@mocap/media';

/** Options of {@link blenderClipRenderer}. */
export interface BlenderClipRendererOptions {
  /** Progress lines (Blender's). */
  onProgress?: ((line: string) => void) | undefined;
  /** Kill Blender after this many ms per clip. @default 1_800_000 */
  timeoutMs?: number;
  /** Environment (for `BLENDER`). @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Workbench anti-aliasing of the renders. @default '8' */
  aa?: string;
}

/**
 * The training-set renderer of `mocap lora`: @mocap/blender-bridge's `applyMotion` keys the
 * rigged creature (`runs/rigged/rigged.blend`, from `mocap rig`) with the motion and renders
 * both views of every frame; @mocap/media composes each front | side pair into the two-view
 * frame and encodes the clip (H.264) at the motion's fps. The joints are Blender's own
 * (`joints.json`), in the motion's joint order.
 *
 * ```ts
 * const renderer = blenderClipRenderer('creatures/wolf');
 * ```
 */
export function blenderClipRenderer(
  creatureDir: string,
  opts: BlenderClipRendererOptions = {},
): ClipRenderer {
  return {
    name: 'blender apply_motion (workbench) + ffmpeg',
    async render({ motion, out, signal }) {
      const work = await mkdtemp(path.join(path.dirname(out), '.render-'));
      try {
        const motionFile = path.join(work, 'motion.json');
        await atomicWriteJson(motionFile, motion);
        const r = await applyMotion({
          creature: creatureDir,
          motion: motionFile,
          out: work,
          renders: 'all',
          aa: opts.aa ?? '8',
          formats: { glb: false, bvh: false, fbx: false },
          timeoutMs: opts.timeoutMs ?? 1_800_000,
          ...(opts.env ? { env: opts.env } : {}),
          ...(signal ? { signal } : {}),
          ...(opts.onProgress
            ? { onProgress: (p: unknown) => opts.onProgress?.(`blender: ${JSON.stringify(p)}`) }
            : {}),
        });
        const { layout } = await resolveCreature({ creature: creatureDir });
        const renders = r.renders as string;
        async function* frames() {
          for (let t = 0; t < r.frames; t++) {
            const n = String(t).padStart(5, '0');
            const front = await readPng(path.join(renders, `${n}_front.png`));
            const side = await readPng(path.join(renders, `${n}_side.png`));
            yield composeFrame(front, side, layout);
          }
        }
        await encodeVideo(out, frames(), {
          fps: motion.fps,
          preset: 'veryfast',
          ...(signal ? { signal } : {}),
        });
        const j = await readJsonFile('lora', r.joints, JointsJson);
        const index = new Map(j.names.map((n, i) => [n, i]));
        const order = motion.names.map((n) => {
          const i = index.get(n);
          if (i === undefined) throw new Error(`lora: ${r.joints}: has no joint "${n}" of the motion.`);
          return i;
        });
        return { joints: j.joints.map((row) => order.map((i) => [...(row[i] as [number, number, number])])) };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
  };
}

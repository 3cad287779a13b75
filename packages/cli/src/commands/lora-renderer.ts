import type { ClipRenderer } from '@mocap/fal';
import { renderMotionClip } from '@mocap/pipeline';

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
 * The training-set renderer of `mocap lora`, on {@link renderMotionClip}: @mocap/blender-bridge's
 * `applyMotion` keys the rigged creature (`runs/rigged/rigged.blend`, from `mocap rig`) with the motion and renders
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
      const { joints } = await renderMotionClip({
        creature: creatureDir,
        motion,
        out,
        op: 'lora',
        aa: opts.aa ?? '8',
        timeoutMs: opts.timeoutMs ?? 1_800_000,
        env: opts.env,
        signal,
        ...(opts.onProgress
          ? { onProgress: (p: unknown) => opts.onProgress?.(`blender: ${JSON.stringify(p)}`) }
          : {}),
      });
      return { joints };
    },
  };
}

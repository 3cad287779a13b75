import type { ApplyView, BlenderProgress } from '@mocap/blender-bridge';

/** Frames of apply's renders, handed on as Blender reports them ({@link renderFeed}). */
export interface RenderFeed {
  /** Give it every progress event of the apply run. */
  report(p: BlenderProgress): void;
  /** The apply run ended: every render asked for is in place. */
  end(): void;
  /** The apply run failed: waiting frames reject with `err`. */
  fail(err: unknown): void;
  /**
   * Frames 0..frames-1, each once all `views` of it are in place, read by `read`: a consumer
   * (showcase.mp4's encoder) works while the next ones render.
   */
  frames<T>(frames: number, read: (t: number) => Promise<T>): AsyncGenerator<T>;
}

/**
 * Hands apply's renders to a consumer frame by frame as Blender reports them (`render` progress
 * with `view` and `frame`, reported once the file lies complete under its final name), so the
 * showcase encodes while apply still renders instead of after it.
 *
 * ```ts
 * const feed = renderFeed(['showcase']);
 * const applying = applyMotion({ ...opts, onProgress: feed.report }).then(feed.end, (e) => { feed.fail(e); throw e; });
 * await writeShowcase(out, clip, feed.frames(T, (t) => readPng(file(t))), o);
 * ```
 */
export function renderFeed(views: readonly ApplyView[]): RenderFeed {
  const seen = new Map<number, Set<string>>();
  let ended = false;
  let failure: { err: unknown } | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const ready = (t: number) => ended || (seen.get(t)?.size ?? 0) >= views.length;
  return {
    report(p) {
      if (p.stage !== 'render' || typeof p.frame !== 'number' || typeof p.view !== 'string') return;
      const s = seen.get(p.frame) ?? new Set<string>();
      seen.set(p.frame, s.add(p.view));
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    fail(err) {
      failure = { err };
      notify();
    },
    async *frames(frames, read) {
      for (let t = 0; t < frames; t++) {
        while (!ready(t)) {
          if (failure) throw failure.err;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        }
        if (failure) throw (failure as { err: unknown }).err;
        seen.delete(t);
        yield await read(t);
      }
    },
  };
}

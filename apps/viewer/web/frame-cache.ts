/** Options of {@link FrameCache}. */
export interface FrameCacheOptions {
  /** The clip's frame count. */
  frames: number;
  /** The URL of frame `t`'s image. */
  url: (t: number) => string;
  /** The size frames are decoded to (the canvas they are drawn on), px. */
  width: number;
  height: number;
  /** Decoded frames kept at most, in bytes (4 a pixel). @default 256 MiB */
  maxBytes?: number;
  /** Frames fetched and decoded at once. @default 4 */
  concurrency?: number;
  /** Called when frame `t` has been decoded (and is in the cache). */
  onLoad: (t: number) => void;
  /** Called when frame `t` could not be fetched or decoded (it is not tried again). */
  onFail?: (t: number) => void;
}

/**
 * The clip's frames as decoded bitmaps (createImageBitmap, decoded off the main thread at the
 * canvas's size), loaded nearest-first around a focus frame (the playhead) and kept up to a byte
 * budget: when it is full the frame farthest from the focus is dropped. Frames beyond the nearest
 * `capacity` are not loaded, so a full cache does not churn.
 */
export class FrameCache {
  readonly capacity: number;
  private readonly bitmaps = new Map<number, ImageBitmap>();
  private readonly loading = new Set<number>();
  private readonly failed = new Set<number>();
  private focusFrame = 0;
  private disposed = false;
  private heldUntil = 0;
  private resume: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly opts: FrameCacheOptions) {
    const bytes = Math.max(1, opts.width * opts.height * 4);
    this.capacity = Math.max(8, Math.min(opts.frames, Math.floor((opts.maxBytes ?? 256 * 2 ** 20) / bytes)));
  }

  /** Frame `t` decoded, or undefined while it is not (yet) in the cache. */
  get(t: number): ImageBitmap | undefined {
    return this.bitmaps.get(t);
  }

  /** The cached frame nearest to `t` (ties: the earlier), or -1 when none is cached. */
  nearest(t: number): number {
    for (let d = 0; d < this.opts.frames; d++) {
      if (this.bitmaps.has(t - d)) return t - d;
      if (this.bitmaps.has(t + d)) return t + d;
    }
    return -1;
  }

  /** Whether nothing is loading or held: every frame of the window around the focus is in (or failed). */
  get idle(): boolean {
    return this.loading.size === 0 && this.resume === null && this.next() < 0;
  }

  /** Moves the playhead the loading is centred on, and loads what is missing around it. */
  focus(t: number): void {
    this.focusFrame = t;
    this.pump();
  }

  /**
   * Starts no new load for `ms` from now (each call extends the hold); loads already under way
   * finish. A scrub holds the full frames while proxies stand in, so their decoding does not
   * compete with drawing every step; loading resumes around the playhead once the scrub rests.
   */
  hold(ms: number): void {
    this.heldUntil = Math.max(this.heldUntil, performance.now() + ms);
    if (this.resume) return;
    const wake = () => {
      const left = this.heldUntil - performance.now();
      if (left > 0) {
        this.resume = setTimeout(wake, left);
        return;
      }
      this.resume = null;
      this.pump();
    };
    this.resume = setTimeout(wake, ms);
  }

  /** Drops every bitmap; nothing loads afterwards. */
  dispose(): void {
    this.disposed = true;
    if (this.resume) clearTimeout(this.resume);
    for (const b of this.bitmaps.values()) b.close();
    this.bitmaps.clear();
  }

  private pump(): void {
    const limit = this.opts.concurrency ?? 4;
    if (performance.now() < this.heldUntil) return;
    while (!this.disposed && this.loading.size < limit) {
      const t = this.next();
      if (t < 0) return;
      void this.load(t);
    }
  }

  /** The nearest frame to the focus not cached, loading or failed (ahead first), within the window. */
  private next(): number {
    const c = this.focusFrame;
    const n = this.opts.frames;
    let seen = 0;
    for (let d = 0; seen < this.capacity && d < n; d++) {
      for (const t of d === 0 ? [c] : [c + d, c - d]) {
        if (t < 0 || t >= n) continue;
        seen++;
        if (!this.bitmaps.has(t) && !this.loading.has(t) && !this.failed.has(t)) return t;
      }
    }
    return -1;
  }

  private async load(t: number): Promise<void> {
    this.loading.add(t);
    try {
      const res = await fetch(this.opts.url(t));
      if (!res.ok) throw new Error(`${res.status}`);
      const bitmap = await createImageBitmap(await res.blob(), {
        resizeWidth: this.opts.width,
        resizeHeight: this.opts.height,
        resizeQuality: 'medium',
      });
      if (this.disposed) {
        bitmap.close();
        return;
      }
      this.bitmaps.set(t, bitmap);
      this.evict();
      if (this.bitmaps.has(t)) this.opts.onLoad(t);
    } catch {
      this.failed.add(t);
      this.opts.onFail?.(t);
    } finally {
      this.loading.delete(t);
      this.pump();
    }
  }

  /** Drops the frames farthest from the focus while the cache holds more than its capacity. */
  private evict(): void {
    while (this.bitmaps.size > this.capacity) {
      let far = -1;
      for (const t of this.bitmaps.keys()) {
        if (far < 0 || Math.abs(t - this.focusFrame) > Math.abs(far - this.focusFrame)) far = t;
      }
      this.bitmaps.get(far)?.close();
      this.bitmaps.delete(far);
    }
  }
}

import { stripCell } from '../src/proxy-strip.js';
import type { Uv, ViewData } from '../src/view-data.js';
import { FrameCache } from './frame-cache.js';

/** A confidence as a colour: red at 0, yellow at 0.5, green at 1 (the dots use tenths). */
const confColour = (c: number) => `hsl(${Math.round(Math.max(0, Math.min(1, c)) * 120)}, 90%, 55%)`;

/** Device pixels per CSS pixel at most: SwiftShader's (and a CPU's) cost grows with pixels. */
const MAX_PIXEL_RATIO = 1;

/** How long after a scrub's last step the full frames start loading again, ms. */
const SCRUB_REST_MS = 150;

/**
 * The clip's frame `t` (a per-frame image from the server, decoded into a {@link FrameCache})
 * with the detections drawn over it: dots coloured by confidence, the skeleton between them, the
 * fitted joints as crosses. The canvas is sized to its box (at most the clip's size); a frame not
 * yet decoded shows the nearest one that is, and is drawn when it arrives. Drawing happens once
 * per animation frame, however many changes came before it.
 */
export class ClipView {
  /** The frame whose image the canvas shows (-1: none yet). */
  shown = -1;
  /** Whether that image is the frame's proxy thumbnail (its full frame not decoded yet). */
  proxy = false;
  private cache: FrameCache | null = null;
  private strips: FrameCache | null = null;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly width: number;
  private readonly height: number;
  private frame = 0;
  private selected: number | null = null;
  private pending = false;
  private firstFrame: (() => void) | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly data: ViewData,
  ) {
    this.width = data.video?.width ?? 1280;
    this.height = data.video?.height ?? 720;
    // A CPU-rastered canvas (willReadFrequently): the overlay's few dozen antialiased paths cost
    // SwiftShader ~60 ms a frame as GPU paths, the CPU well under one; the frame is then one upload.
    this.ctx = canvas.getContext('2d', {
      alpha: false,
      willReadFrequently: true,
    }) as CanvasRenderingContext2D;
    this.fit();
    new ResizeObserver(() => {
      if (this.fit()) this.invalidate();
    }).observe(canvas);
  }

  /**
   * Starts loading frames around the playhead; resolves when the first one is drawable (or
   * failed, or the folder has no clip).
   */
  load(): Promise<void> {
    const frames = this.data.video?.frames ?? 0;
    if (frames === 0) return Promise.resolve();
    const first = new Promise<void>((resolve) => {
      this.firstFrame = resolve;
    });
    this.cache = new FrameCache({
      frames,
      url: (t) => `/frames/${t}.jpg`,
      width: this.canvas.width,
      height: this.canvas.height,
      onLoad: (t) => {
        if (t === this.frame) this.firstFrame?.();
        // The playhead's frame (in place of its thumbnail), or a nearer stand-in while it loads.
        if (this.shown !== this.frame || (this.proxy && t === this.frame)) this.invalidate();
      },
      // A clip whose frame cannot be read still opens (that frame draws black or a neighbour).
      onFail: (t) => {
        if (t === this.frame) this.firstFrame?.();
      },
    });
    const strip = this.data.video?.strip;
    if (strip) {
      // Strips are small and cover 25 frames each: a few hold the whole neighbourhood of the playhead.
      this.strips = new FrameCache({
        frames: strip.count,
        url: (k) => `/strips/${k}.jpg`,
        width: strip.cols * strip.thumbWidth,
        height: strip.rows * strip.thumbHeight,
        maxBytes: 64 * 2 ** 20,
        concurrency: 2,
        onLoad: (k) => {
          if (this.shown !== this.frame && stripCell(strip, this.frame).k === k) this.invalidate();
        },
      });
      this.strips.focus(stripCell(strip, this.frame).k);
    }
    this.cache.focus(this.frame);
    return first;
  }

  /** Whether the frames (and proxy strips) around the playhead are all loaded (or failed). */
  get idle(): boolean {
    return (this.cache?.idle ?? true) && (this.strips?.idle ?? true);
  }

  /** Rings joint `j`'s detections (none for null). */
  select(j: number | null): void {
    this.selected = j;
    this.invalidate();
  }

  /**
   * Moves to frame `t`. With `scrub` (a drag of the timeline) and proxy strips to stand in, the
   * full frames are held until the scrub rests ({@link SCRUB_REST_MS}).
   */
  setFrame(t: number, scrub = false): void {
    this.frame = t;
    const strip = this.data.video?.strip;
    if (strip) this.strips?.focus(stripCell(strip, t).k);
    if (scrub && strip) this.cache?.hold(SCRUB_REST_MS);
    this.cache?.focus(t);
    this.invalidate();
  }

  /** Sizes the canvas to its box (at most the clip's pixels); true when the size changed. */
  private fit(): boolean {
    const ratio = Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
    const box = this.canvas.clientWidth || this.width;
    const w = Math.max(1, Math.min(this.width, Math.round(box * ratio)));
    const h = Math.max(1, Math.round((w * this.height) / this.width));
    if (w === this.canvas.width && h === this.canvas.height) return false;
    this.canvas.width = w;
    this.canvas.height = h;
    return true;
  }

  /** Draws once at the next animation frame. */
  private invalidate(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  private draw(): void {
    const { ctx, data } = this;
    const t = this.frame;
    // Clip px from here on, whatever the canvas's size.
    ctx.setTransform(this.canvas.width / this.width, 0, 0, this.canvas.height / this.height, 0, 0);
    this.shown = this.drawFrame(t);
    this.proxy = this.shown === t && !this.cache?.get(t);
    if (!data.video?.overlay) return;
    const scale = this.width / 640;
    ctx.lineWidth = Math.max(1, scale);
    const det = data.det;
    if (det) {
      const pts = det.points[t];
      for (const view of ['front', 'side'] as const) {
        const uv = pts?.[view] ?? [];
        const conf = (view === 'front' ? det.frontConf : det.sideConf)[t] ?? [];
        ctx.strokeStyle = 'rgba(255,255,255,0.55)';
        ctx.beginPath();
        for (const [a, b] of data.edges) line(ctx, uv[a] ?? null, uv[b] ?? null);
        ctx.stroke();
        // One path per confidence tenth: a few fills a view instead of one per joint.
        for (let bucket = 0; bucket <= 10; bucket++) {
          let any = false;
          uv.forEach((p, j) => {
            if (!p || Math.round(Math.max(0, Math.min(1, conf[j] ?? 0)) * 10) !== bucket) return;
            if (!any) ctx.beginPath();
            any = true;
            ctx.moveTo(p[0] + 2.5 * scale, p[1]);
            ctx.arc(p[0], p[1], 2.5 * scale, 0, 2 * Math.PI);
          });
          if (!any) continue;
          ctx.fillStyle = confColour(bucket / 10);
          ctx.fill();
        }
      }
    }
    const sel = this.selected;
    if (sel !== null && det) {
      ctx.strokeStyle = '#fff';
      for (const p of [det.points[t]?.front[sel], det.points[t]?.side[sel]]) {
        if (!p) continue;
        ctx.beginPath();
        ctx.arc(p[0], p[1], 7 * scale, 0, 2 * Math.PI);
        ctx.stroke();
      }
    }
    const fitted = data.fitted[t];
    ctx.strokeStyle = '#fff';
    ctx.beginPath();
    for (const p of [...(fitted?.front ?? []), ...(fitted?.side ?? [])]) cross(ctx, p, 2.5 * scale);
    ctx.stroke();
  }

  /**
   * Draws frame `t`'s image: the full frame, else its proxy thumbnail, else the nearest decoded
   * full frame, else black. Returns the frame drawn (-1: none).
   */
  private drawFrame(t: number): number {
    const { ctx, width, height } = this;
    const full = this.cache?.get(t);
    if (full) {
      ctx.drawImage(full, 0, 0, width, height);
      return t;
    }
    const strip = this.data.video?.strip;
    const cell = strip ? stripCell(strip, t) : null;
    const atlas = cell ? this.strips?.get(cell.k) : undefined;
    if (strip && cell && atlas) {
      ctx.drawImage(atlas, cell.x, cell.y, strip.thumbWidth, strip.thumbHeight, 0, 0, width, height);
      return t;
    }
    const near = this.cache ? this.cache.nearest(t) : -1;
    const img = near >= 0 ? this.cache?.get(near) : undefined;
    if (img) {
      ctx.drawImage(img, 0, 0, width, height);
      return near;
    }
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, width, height);
    return -1;
  }
}

/** Adds segment a-b to the current path (nothing when either end is missing). */
function line(ctx: CanvasRenderingContext2D, a: Uv, b: Uv): void {
  if (!a || !b) return;
  ctx.moveTo(a[0], a[1]);
  ctx.lineTo(b[0], b[1]);
}

/** Adds an x of half-size r at p to the current path. */
function cross(ctx: CanvasRenderingContext2D, p: Uv, r: number): void {
  if (!p) return;
  ctx.moveTo(p[0] - r, p[1] - r);
  ctx.lineTo(p[0] + r, p[1] + r);
  ctx.moveTo(p[0] - r, p[1] + r);
  ctx.lineTo(p[0] + r, p[1] - r);
}

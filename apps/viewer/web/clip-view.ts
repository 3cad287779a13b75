import type { Uv, ViewData } from '../src/view-data.js';

/** A confidence as a colour: red at 0, yellow at 0.5, green at 1. */
const confColour = (c: number) => `hsl(${Math.round(Math.max(0, Math.min(1, c)) * 120)}, 90%, 55%)`;

/**
 * The clip's frame `t` (a per-frame image from the server) with the detections drawn over it:
 * dots coloured by confidence, the skeleton between them, the fitted joints as crosses.
 */
export class ClipView {
  private readonly images: HTMLImageElement[] = [];
  private readonly ctx: CanvasRenderingContext2D;
  private frame = 0;
  private selected: number | null = null;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly data: ViewData,
  ) {
    const video = data.video;
    canvas.width = video?.width ?? 1280;
    canvas.height = video?.height ?? 720;
    this.ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  }

  /** Loads every frame's image; resolves when all have loaded (or failed: those draw black). */
  preload(): Promise<void> {
    const n = this.data.video?.frames ?? 0;
    const loads: Promise<void>[] = [];
    for (let t = 0; t < n; t++) {
      const img = new Image();
      loads.push(
        new Promise((resolve) => {
          img.onload = () => {
            if (t === this.frame) this.draw();
            resolve();
          };
          img.onerror = () => resolve();
        }),
      );
      img.src = `/frames/${t}.jpg`;
      this.images.push(img);
    }
    return Promise.all(loads).then(() => {});
  }

  /** Rings joint `j`'s detections (none for null). */
  select(j: number | null): void {
    this.selected = j;
    this.draw();
  }

  setFrame(t: number): void {
    this.frame = t;
    this.draw();
  }

  private draw(): void {
    const { ctx, data } = this;
    const t = this.frame;
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const img = this.images[Math.min(t, this.images.length - 1)];
    if (img?.complete && img.naturalWidth > 0) ctx.drawImage(img, 0, 0);
    if (!data.video?.overlay) return;
    const scale = this.canvas.width / 640;
    ctx.lineWidth = Math.max(1, scale);
    const det = data.det;
    if (det) {
      const pts = det.points[t];
      for (const view of ['front', 'side'] as const) {
        const uv = pts?.[view] ?? [];
        const conf = (view === 'front' ? det.frontConf : det.sideConf)[t] ?? [];
        ctx.strokeStyle = 'rgba(255,255,255,0.55)';
        for (const [a, b] of data.edges) line(ctx, uv[a] ?? null, uv[b] ?? null);
        uv.forEach((p, j) => {
          if (!p) return;
          ctx.fillStyle = confColour(conf[j] ?? 0);
          ctx.beginPath();
          ctx.arc(p[0], p[1], 2.5 * scale, 0, 2 * Math.PI);
          ctx.fill();
        });
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
    for (const p of [...(fitted?.front ?? []), ...(fitted?.side ?? [])]) cross(ctx, p, 2.5 * scale);
  }
}

function line(ctx: CanvasRenderingContext2D, a: Uv, b: Uv): void {
  if (!a || !b) return;
  ctx.beginPath();
  ctx.moveTo(a[0], a[1]);
  ctx.lineTo(b[0], b[1]);
  ctx.stroke();
}

function cross(ctx: CanvasRenderingContext2D, p: Uv, r: number): void {
  if (!p) return;
  ctx.beginPath();
  ctx.moveTo(p[0] - r, p[1] - r);
  ctx.lineTo(p[0] + r, p[1] + r);
  ctx.moveTo(p[0] - r, p[1] + r);
  ctx.lineTo(p[0] + r, p[1] - r);
  ctx.stroke();
}

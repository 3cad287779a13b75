/** One line of a chart. */
export interface Series {
  label: string;
  colour: string;
  values: number[];
}

/** The plot's margins inside its canvas, px: left (value labels), top, right, bottom (frame labels). */
const PAD = { left: 28, top: 4, right: 4, bottom: 14 };

/**
 * A line chart of per-frame values on a canvas, with a cursor at the current frame; a click or
 * drag on it seeks. Non-finite values leave gaps. The lines are drawn when the chart's size or
 * series change; the cursor is an element over the canvas moved by a transform, so a new frame
 * costs no redraw and no layout.
 */
export class LineChart {
  readonly figure: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly cursor: HTMLElement;
  private frame = 0;
  private extra: Series[] = [];
  private readonly caption: HTMLElement;
  private readonly title: string;
  /** The canvas's size in CSS px, from the ResizeObserver (never read from layout per frame). */
  private size = { width: 0, height: 0 };

  constructor(
    title: string,
    private readonly series: Series[],
    private readonly frames: number,
    onSeek: (t: number) => void,
  ) {
    this.figure = document.createElement('figure');
    this.figure.dataset.chart = title;
    this.caption = document.createElement('figcaption');
    this.title = title;
    this.label();
    this.canvas = document.createElement('canvas');
    this.cursor = Object.assign(document.createElement('div'), { className: 'cursor' });
    this.cursor.style.top = `${PAD.top}px`;
    this.cursor.style.bottom = `${PAD.bottom}px`;
    const plot = Object.assign(document.createElement('div'), { className: 'plot' });
    plot.append(this.canvas, this.cursor);
    this.figure.append(this.caption, plot);
    const seek = (e: PointerEvent) => {
      const r = this.canvas.getBoundingClientRect();
      const inner = r.width - PAD.left - PAD.right;
      onSeek(((e.clientX - r.left - PAD.left) / Math.max(1, inner)) * (this.frames - 1));
    };
    this.canvas.addEventListener('pointerdown', (e) => {
      seek(e);
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (e.buttons) seek(e);
    });
    new ResizeObserver(([entry]) => {
      const box = entry?.contentRect;
      this.size = { width: Math.round(box?.width || 400), height: Math.round(box?.height || 140) };
      this.draw();
    }).observe(this.canvas);
  }

  setFrame(t: number): void {
    this.frame = t;
    this.placeCursor();
  }

  /** Lines drawn besides the chart's own (a selected joint's), none with []. */
  setExtra(series: Series[]): void {
    this.extra = series;
    this.label();
    this.draw();
  }

  private label(): void {
    const names = [...this.series, ...this.extra].map(
      (s) => `<span style="color:${s.colour}">${s.label}</span>`,
    );
    this.caption.innerHTML = `${this.title}: ${names.join(', ')}`;
  }

  /** Frame t's column in the canvas, CSS px. */
  private x(t: number): number {
    return PAD.left + (t / Math.max(1, this.frames - 1)) * (this.size.width - PAD.left - PAD.right);
  }

  private placeCursor(): void {
    this.cursor.style.transform = `translateX(${this.x(this.frame).toFixed(1)}px)`;
  }

  private draw(): void {
    const c = this.canvas;
    const { width, height } = this.size;
    if (width === 0) return;
    if (c.width !== width || c.height !== height) {
      c.width = width;
      c.height = height;
    }
    const ctx = c.getContext('2d') as CanvasRenderingContext2D;
    const all = [...this.series, ...this.extra];
    const max = Math.max(1e-9, ...all.flatMap((s) => s.values.filter(Number.isFinite)));
    const y = (v: number) => height - PAD.bottom - (v / max) * (height - PAD.top - PAD.bottom - 4);
    ctx.clearRect(0, 0, width, height);
    ctx.fillStyle = '#889';
    ctx.font = '10px system-ui';
    ctx.fillText(max.toPrecision(3), 2, 12);
    ctx.fillText('0', 2, height - 12);
    ctx.fillText(String(this.frames - 1), width - 24, height - 2);
    ctx.strokeStyle = '#444a55';
    ctx.strokeRect(PAD.left, PAD.top, width - PAD.left - PAD.right, height - PAD.top - PAD.bottom);
    for (const s of all) {
      ctx.strokeStyle = s.colour;
      ctx.beginPath();
      let down = false;
      s.values.forEach((v, t) => {
        if (!Number.isFinite(v)) {
          down = false;
          return;
        }
        if (down) ctx.lineTo(this.x(t), y(v));
        else ctx.moveTo(this.x(t), y(v));
        down = true;
      });
      ctx.stroke();
    }
    this.placeCursor();
  }
}

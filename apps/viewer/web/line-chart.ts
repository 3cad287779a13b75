/** One line of a chart. */
export interface Series {
  label: string;
  colour: string;
  values: number[];
}

/**
 * A line chart of per-frame values on a canvas, with a cursor at the current frame; a click or
 * drag on it seeks. Non-finite values leave gaps.
 */
export class LineChart {
  readonly figure: HTMLElement;
  private readonly canvas: HTMLCanvasElement;
  private frame = 0;
  private extra: Series[] = [];
  private readonly caption: HTMLElement;
  private readonly title: string;

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
    this.figure.append(this.caption, this.canvas);
    const seek = (e: PointerEvent) => {
      const r = this.canvas.getBoundingClientRect();
      onSeek(((e.clientX - r.left) / r.width) * (this.frames - 1));
    };
    this.canvas.addEventListener('pointerdown', (e) => {
      seek(e);
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (e.buttons) seek(e);
    });
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  setFrame(t: number): void {
    this.frame = t;
    this.draw();
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

  private draw(): void {
    const c = this.canvas;
    c.width = c.clientWidth || 400;
    c.height = c.clientHeight || 140;
    const ctx = c.getContext('2d') as CanvasRenderingContext2D;
    const all = [...this.series, ...this.extra];
    const max = Math.max(1e-9, ...all.flatMap((s) => s.values.filter(Number.isFinite)));
    const pad = 28;
    const x = (t: number) => pad + (t / Math.max(1, this.frames - 1)) * (c.width - pad - 4);
    const y = (v: number) => c.height - 14 - (v / max) * (c.height - 22);
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.fillStyle = '#889';
    ctx.font = '10px system-ui';
    ctx.fillText(max.toPrecision(3), 2, 12);
    ctx.fillText('0', 2, c.height - 12);
    ctx.fillText(String(this.frames - 1), c.width - 24, c.height - 2);
    ctx.strokeStyle = '#444a55';
    ctx.strokeRect(pad, 4, c.width - pad - 4, c.height - 18);
    for (const s of all) {
      ctx.strokeStyle = s.colour;
      ctx.beginPath();
      let down = false;
      s.values.forEach((v, t) => {
        if (!Number.isFinite(v)) {
          down = false;
          return;
        }
        if (down) ctx.lineTo(x(t), y(v));
        else ctx.moveTo(x(t), y(v));
        down = true;
      });
      ctx.stroke();
    }
    ctx.strokeStyle = '#fff';
    ctx.beginPath();
    ctx.moveTo(x(this.frame), 4);
    ctx.lineTo(x(this.frame), c.height - 14);
    ctx.stroke();
  }
}

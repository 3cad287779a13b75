/**
 * One clock for both views: play and pause at the clip's fps times a speed, scrub, step. Every
 * change of frame calls `onFrame` once.
 */
export class Timeline {
  frame = 0;
  speed = 1;
  private playing = false;
  private last = 0;
  private acc = 0;

  constructor(
    readonly frames: number,
    private readonly fps: number,
    private readonly onFrame: (t: number) => void,
    private readonly onPlay: (playing: boolean) => void = () => {},
  ) {}

  get isPlaying(): boolean {
    return this.playing;
  }

  seek(t: number): void {
    const f = Math.max(0, Math.min(this.frames - 1, Math.round(t)));
    if (f === this.frame) return;
    this.frame = f;
    this.onFrame(f);
  }

  step(d: number): void {
    this.pause();
    this.seek(this.frame + d);
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    if (this.playing) return;
    if (this.frame >= this.frames - 1) this.seek(0);
    this.playing = true;
    this.acc = 0;
    this.last = performance.now();
    this.onPlay(true);
    requestAnimationFrame((now) => this.tick(now));
  }

  pause(): void {
    if (!this.playing) return;
    this.playing = false;
    this.onPlay(false);
  }

  private tick(now: number): void {
    if (!this.playing) return;
    this.acc += ((now - this.last) / 1000) * this.fps * this.speed;
    this.last = now;
    const steps = Math.floor(this.acc);
    if (steps > 0) {
      this.acc -= steps;
      if (this.frame + steps >= this.frames - 1) {
        this.seek(this.frames - 1);
        this.pause();
        return;
      }
      this.seek(this.frame + steps);
    }
    requestAnimationFrame((n) => this.tick(n));
  }
}

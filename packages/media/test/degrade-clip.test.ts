import path from 'node:path';
import { Layout } from '@mocap/layout';
import {
  decodeVideo,
  degradeClip,
  encodeVideo,
  fillCircle,
  getPixel,
  parseDegradePresets,
  probeVideo,
  type RgbImage,
  studioBackdrop,
} from '@mocap/media';
import { DEGRADE_RANGES, drawDegrade, gradeColour } from '@mocap/media/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

// A quarter-size studio (320 x 180) at 30 fps: a red disc in the front view, a blue one in the
// side view, each moving 3 px a frame to the right.
const layout = Layout.parse({ WIDTH: 320, HEIGHT: 180, W_FRONT: 106, W_SIDE: 214, GROUND_V: 160 });
const T = 16;
const redAt = (t: number): [number, number] => [30 + 3 * t, 100];
const blueAt = (t: number): [number, number] => [160 + 3 * t, 100];
function source(t: number): RgbImage {
  const img = studioBackdrop(layout);
  fillCircle(img, ...redAt(t), 10, [230, 30, 30]);
  fillCircle(img, ...blueAt(t), 10, [30, 40, 230]);
  return img;
}

/** Centre of the pixels of one colour (`red`: r high, b low; `blue`: b high, r low) within x in [x0, x1). */
function centroid(img: RgbImage, which: 'red' | 'blue', x0 = 0, x1 = img.width): [number, number] {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < img.height; y++)
    for (let x = x0; x < x1; x++) {
      const [r, , b] = getPixel(img, x, y);
      const hit = which === 'red' ? r > 150 && b < 110 : b > 150 && r < 110;
      if (hit) {
        sx += x + 0.5;
        sy += y + 0.5;
        n++;
      }
    }
  return [sx / n, sy / n];
}

async function frames(file: string): Promise<RgbImage[]> {
  const out: RgbImage[] = [];
  for await (const f of decodeVideo(file)) out.push(f);
  return out;
}

function mean(img: RgbImage, x0: number, y0: number, w: number, h: number): [number, number, number] {
  const s = [0, 0, 0];
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) {
      const px = getPixel(img, x, y);
      for (let k = 0; k < 3; k++) s[k]! += px[k]! / (w * h);
    }
  return s as [number, number, number];
}

function std(img: RgbImage, x0: number, y0: number, w: number, h: number): number {
  const m = mean(img, x0, y0, w, h)[1];
  let s = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) s += (getPixel(img, x, y)[1] - m) ** 2;
  return Math.sqrt(s / (w * h));
}

let dir = '';
let clip = '';
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  clip = path.join(dir, 'clip.mp4');
  await encodeVideo(
    clip,
    Array.from({ length: T }, (_, t) => source(t)),
    { fps: 30, crf: 4, preset: 'ultrafast' },
  );
});
afterAll(() => cleanup());

const run = (name: string, presets: Parameters<typeof parseDegradePresets>[0], seed = 1) =>
  degradeClip(clip, path.join(dir, `${name}.mp4`), {
    presets: parseDegradePresets(presets),
    seed,
    layout,
    preset: 'ultrafast',
  });

describe('drawDegrade', () => {
  it("draws every parameter inside the issue's ranges, the same for the same seed", () => {
    const src = { width: 1280, height: 720, fps: 30 };
    for (let seed = 0; seed < 40; seed++) {
      const p = drawDegrade(['all'], seed, src);
      const R = DEGRADE_RANGES;
      expect(p.codec!.crf).toBeGreaterThanOrEqual(R.codec.crf[0]);
      expect(p.codec!.crf).toBeLessThanOrEqual(R.codec.crf[1]);
      expect(p.codec!.noise).toBeGreaterThanOrEqual(2);
      expect(p.resize!.width % 16).toBe(0);
      expect(p.resize!.height % 16).toBe(0);
      expect(p.resize!.width / p.resize!.height).toBeGreaterThan(1.55);
      expect(p.resize!.width / p.resize!.height).toBeLessThan(1.95);
      expect(p.resize!.height).toBeGreaterThanOrEqual(0.6 * 720 - 8);
      expect(p.reframe!.scale).toBeGreaterThanOrEqual(0.88);
      expect(Math.abs(p.reframe!.shiftX)).toBeLessThanOrEqual(0.04);
      expect(Math.abs(p.drift!.zoom)).toBeLessThanOrEqual(0.02);
      expect(p.colour!.to.hue).toBeGreaterThanOrEqual(-10);
      expect([24, 16]).toContain(p.fps!.fps);
      expect(p.ghost!.blend).toBeGreaterThanOrEqual(0.2);
      expect([1, 2]).toContain(p.lag!.frames);
      expect(p.fade!.frames).toBeGreaterThanOrEqual(5);
      expect(p.fade!.frames).toBeLessThanOrEqual(10);
      expect(drawDegrade(['all'], seed, src)).toEqual(p);
    }
    // Each preset draws from its own stream: codec alone draws what codec draws within all.
    expect(drawDegrade(['codec'], 3, src).codec).toEqual(drawDegrade(['all'], 3, src).codec);
    expect(drawDegrade(['codec'], 3, src)).not.toEqual(drawDegrade(['codec'], 4, src));
  });

  it('parses a preset list and names an unknown preset', () => {
    expect(parseDegradePresets('codec, fps')).toEqual(['codec', 'fps']);
    expect(() => parseDegradePresets('codec,blur')).toThrow(
      /"blur" is not a preset; expected codec, resize, .*all/,
    );
  });
});

describe('gradeColour', () => {
  it('leaves colours as they are at the neutral grade and moves them otherwise', () => {
    const img = source(0);
    const same = gradeColour(img, { saturation: 1, brightness: 0, gamma: 1, hue: 0 });
    let worst = 0;
    for (let i = 0; i < img.data.length; i++) worst = Math.max(worst, Math.abs(same.data[i]! - img.data[i]!));
    expect(worst).toBeLessThanOrEqual(1);
    const dull = gradeColour(img, { saturation: 0.5, brightness: 0.05, gamma: 1, hue: 0 });
    const [r, g] = getPixel(dull, ...redAt(0));
    expect(r - g).toBeLessThan(0.6 * (230 - 30));
    expect(getPixel(dull, 5, 5)[1]).toBeGreaterThan(getPixel(img, 5, 5)[1] + 8);
  });
});

describe('degradeClip (real ffmpeg)', () => {
  it('codec: blur, noise and a high crf; the same seed gives the same clip', async () => {
    const a = await run('codec', 'codec', 5);
    expect(a.presets).toEqual(['codec']);
    expect(a.params.codec!.crf).toBeGreaterThanOrEqual(28);
    const fa = await frames(a.out);
    const clean = (await frames(clip))[3]!;
    // The disc's edge softened by the blur: the steepest step across it is lower.
    const steepest = (img: RgbImage) => {
      const [x, y] = redAt(3);
      let best = 0;
      for (let u = x - 14; u < x + 14; u++)
        best = Math.max(best, Math.abs(getPixel(img, u + 1, y)[0] - getPixel(img, u, y)[0]));
      return best;
    };
    expect(steepest(fa[3]!)).toBeLessThan(0.8 * steepest(clean));
    // Noise, then the codec (which smooths most of it away on a flat wall): the frame is no longer the clean one.
    expect(std(fa[3]!, 240, 10, 60, 40)).toBeGreaterThan(std(clean, 240, 10, 60, 40));
    const b = await run('codec-again', 'codec', 5);
    expect(b.params).toEqual(a.params);
    const fb = await frames(b.out);
    expect(fb.map((f) => Buffer.from(f.data).equals(Buffer.from(fa[fb.indexOf(f)]!.data)))).not.toContain(
      false,
    );
    expect((await run('codec-other', 'codec', 6)).params).not.toEqual(a.params);
  });

  it('resize: another frame size, as drawn', async () => {
    const r = await run('resize', 'resize', 2);
    const info = await probeVideo(r.out);
    expect([info.width, info.height]).toEqual([r.params.resize!.width, r.params.resize!.height]);
    expect(info.width).not.toBe(320);
    // The true calibration maps the red disc back to its layout place.
    const f = (await frames(r.out))[4]!;
    const [u, v] = centroid(f, 'red');
    const [sx, sy, tx, ty] = r.calib.subarray(16, 20);
    expect(Math.abs(sx! * u + tx! - redAt(4)[0])).toBeLessThan(1.5);
    expect(Math.abs(sy! * v + ty! - redAt(4)[1])).toBeLessThan(1.5);
  });

  it('fps: 30 -> 24 or 16 with the frame mapping, so the truth can follow', async () => {
    const r = await run('fps', 'fps', 1);
    const f = r.params.fps!.fps;
    expect([24, 16]).toContain(f);
    const info = await probeVideo(r.out);
    expect(info.fps).toBe(f);
    expect(info.frames).toBe(r.frames);
    expect(r.frames).toBe(Math.floor(((T - 1) * f) / 30) + 1);
    expect(r.frameMap[0]).toBe(0);
    const out = await frames(r.out);
    for (const k of [1, 3, r.frames - 1]) {
      const t = r.frameMap[k]!;
      expect(Math.abs(t - (k * 30) / f)).toBeLessThanOrEqual(0.5);
      expect(Math.abs(centroid(out[k]!, 'red')[0] - redAt(t)[0])).toBeLessThan(1);
    }
  });

  it('reframe and drift: the picture scaled, shifted and sliding, the studio going on around it', async () => {
    const r = await run('reframe-drift', 'reframe,drift', 4);
    const out = await frames(r.out);
    for (const k of [0, T - 1]) {
      const [u, v] = centroid(out[k]!, 'blue');
      const [sx, sy, tx, ty] = r.calib.subarray(4 * k, 4 * k + 4);
      expect(Math.abs(sx! * u + tx! - blueAt(k)[0])).toBeLessThan(1);
      expect(Math.abs(sy! * v + ty! - blueAt(k)[1])).toBeLessThan(1);
    }
    expect(r.calib[0]).not.toBeCloseTo(r.calib[4 * (T - 1)]!, 3);
    // No fill colour of its own: the corners are the studio's.
    expect(getPixel(out[0]!, 0, 0)[1]).toBeCloseTo(layout.colours.wall[1], -1);
    expect(getPixel(out[0]!, 319, 179)[1]).toBeCloseTo(layout.colours.floor[1], -1);
  });

  it('colour: the grade moves the wall and drifts through the clip', async () => {
    const r = await run('colour', 'colour', 3);
    const out = await frames(r.out);
    const clean = (await frames(clip))[0]!;
    // The red disc's colour at the first and the last frame: graded, and graded differently.
    const disc = (img: RgbImage, t: number) => mean(img, redAt(t)[0] - 3, redAt(t)[1] - 3, 6, 6);
    const c0 = disc(out[0]!, 0);
    const c1 = disc(out[T - 1]!, T - 1);
    const w = disc(clean, 0);
    const gap = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));
    expect(Math.max(gap(c0, w), gap(c1, w))).toBeGreaterThan(6);
    expect(gap(c0, c1)).toBeGreaterThan(2);
  });

  it('fade: the first frames come up from the empty studio', async () => {
    const r = await run('fade', 'fade', 1);
    const out = await frames(r.out);
    const n = r.params.fade!.frames;
    // Frame 0 is the empty studio where the red disc will be; half way through the fade, half red.
    expect(getPixel(out[0]!, ...redAt(0))[0]).toBeCloseTo(layout.colours.wall[0], -1);
    const mid = getPixel(out[Math.floor(n / 2)]!, ...redAt(Math.floor(n / 2)))[0];
    expect(mid).toBeGreaterThan(layout.colours.wall[0] + 20);
    expect(mid).toBeLessThan(215);
    expect(getPixel(out[n]!, ...redAt(n))[0]).toBeGreaterThan(215);
  });

  it('lag and ghost: one view frames behind, each frame a blend with the one before', async () => {
    const r = await run('lag', 'lag', 2);
    const out = await frames(r.out);
    const k = r.params.lag!.frames;
    const t = 8;
    const [red] = centroid(out[t]!, 'red', 0, 106);
    const [blue] = centroid(out[t]!, 'blue', 106, 320);
    const lagged = r.params.lag!.view === 'front' ? red - redAt(t - k)[0] : blue - blueAt(t - k)[0];
    const onTime = r.params.lag!.view === 'front' ? blue - blueAt(t)[0] : red - redAt(t)[0];
    expect(Math.abs(lagged)).toBeLessThan(1);
    expect(Math.abs(onTime)).toBeLessThan(1);
    const g = await run('ghost', 'ghost', 2);
    const a = g.params.ghost!.blend;
    const gf = await frames(g.out);
    // Where the disc was one frame before (and is no more): a share `a` of its red.
    const [x, y] = redAt(t - 1);
    const was = getPixel(gf[t]!, x - 8, y)[0];
    expect(was).toBeCloseTo(layout.colours.wall[0] + a * (230 - layout.colours.wall[0]), -1);
  });

  it('with fps, lag and ghost count the delivered frames: the frame before is the one delivered before', async () => {
    const r = await run('fps-lag', 'fps, lag', 2);
    const map = r.frameMap;
    // A delivered frame two source frames after the one before it (6 px of motion between them).
    const k = map.findIndex((s, i) => i >= 3 && s - map[i - 1]! === 2);
    expect(k).toBeGreaterThan(0);
    const out = await frames(r.out);
    const lag = r.params.lag!.frames;
    const late = map[k - lag]!;
    if (r.params.lag!.view === 'front') {
      expect(Math.abs(centroid(out[k]!, 'red', 0, 106)[0] - redAt(late)[0])).toBeLessThan(1);
      expect(Math.abs(centroid(out[k]!, 'blue', 106, 320)[0] - blueAt(map[k]!)[0])).toBeLessThan(1);
    } else {
      expect(Math.abs(centroid(out[k]!, 'blue', 106, 320)[0] - blueAt(late)[0])).toBeLessThan(1);
      expect(Math.abs(centroid(out[k]!, 'red', 0, 106)[0] - redAt(map[k]!)[0])).toBeLessThan(1);
    }
    const g = await run('fps-ghost', 'fps, ghost', 2);
    expect(g.frameMap).toEqual(map);
    const a = g.params.ghost!.blend;
    const gf = await frames(g.out);
    // 8 px behind the disc of the frame delivered before: outside this frame's disc and the
    // skipped source frame's, inside the delivered one's.
    const [x, y] = redAt(map[k - 1]!);
    expect(getPixel(gf[k]!, x - 8, y)[0]).toBeCloseTo(
      layout.colours.wall[0] + a * (230 - layout.colours.wall[0]),
      -1,
    );
  });

  it('all: every preset at once', async () => {
    const r = await run('all', 'all', 1);
    expect(r.presets).toHaveLength(9);
    expect(Object.keys(r.params).sort()).toEqual(
      ['codec', 'colour', 'drift', 'fade', 'fps', 'ghost', 'lag', 'reframe', 'resize'].sort(),
    );
    const info = await probeVideo(r.out);
    expect(info).toMatchObject({ width: r.width, height: r.height, fps: r.fps, frames: r.frames });
  });
});

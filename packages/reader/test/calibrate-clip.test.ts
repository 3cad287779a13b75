import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { seededRandom } from '@mocap/anim-loop';
import {
  createImage,
  encodeVideo,
  fillRect,
  findFfmpeg,
  probeVideo,
  type RgbImage,
  resize,
  studioBackdrop,
} from '@mocap/media';
import { CalibrationError, type ClipCalib, calibAt, calibrateClip } from '@mocap/reader/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cornerError, frameAs, small, studioFrame, vignetted } from './studio-clip.js';

const WALL = small.colours.wall;
const run = promisify(execFile);
const ref = studioFrame(0);
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'reader-calib-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Encodes frames (near-lossless, so the test measures the calibration, not the codec). */
async function clipOf(name: string, frames: RgbImage[], fps = 10): Promise<string> {
  const file = path.join(dir, name);
  await encodeVideo(file, frames, { fps, crf: 8, preset: 'ultrafast' });
  return file;
}

async function calibrate(file: string) {
  const info = await probeVideo(file);
  return { info, c: await calibrateClip(file, { layout: small, ref, info, frames: info.frames }) };
}

/** The clip frame size's calibration when the clip is the layout resized (no zoom, no shift). */
const resized = (w: number, h: number): ClipCalib => ({
  sx: small.WIDTH / w,
  sy: small.HEIGHT / h,
  tx: 0,
  ty: 0,
});

describe('calibrateClip', () => {
  it('takes a vignetted clip at the layout size as the layout itself: no bars, no zoom', async () => {
    for (const angle of [Math.PI / 5, Math.PI / 4]) {
      const frames = Array.from({ length: 8 }, (_, k) => vignetted(studioFrame(k), angle));
      const { c } = await calibrate(await clipOf(`vignette-${angle.toFixed(2)}.mp4`, frames));
      expect(
        cornerError(c.calib, resized(small.WIDTH, small.HEIGHT), small.WIDTH, small.HEIGHT),
      ).toBeLessThan(0.5);
      expect(c.content).toEqual({ x0: 0, x1: small.WIDTH, y0: 0, y1: small.HEIGHT });
    }
  });

  it('takes a clip of another frame size and aspect as the layout resized (832 x 480 at quarter size)', async () => {
    // 208 x 120: aspect 1.733 against the layout's 1.778, as Wan's 832 x 480 against 1280 x 720.
    const frames = Array.from({ length: 8 }, (_, k) => resize(studioFrame(k), 208, 120));
    const { c } = await calibrate(await clipOf('wan.mp4', frames));
    expect(cornerError(c.calib, resized(208, 120), 208, 120)).toBeLessThan(0.5);
    expect(c.drifts).toBe(false);
    expect(c.scale).toEqual({ x: 'frame', y: 'frame' });
    expect(c.samples.every((s) => s.used)).toBe(true);
  });

  it('takes the full-height divider and full-width ground over a darker column and a brighter band of the creature', async () => {
    // A dark pillar over 80% of the front view's height (darker than the faint divider of a small
    // frame) and a bright body across 60% of the width above the ground (a stronger step up).
    const frames = Array.from({ length: 8 }, (_, k) => {
      const f = studioFrame(k);
      fillRect(f, 40 + k, 30, 5, 145, [20, 20, 60]);
      fillRect(f, 120, 100, 190, 30, [200, 200, 190]);
      return resize(f, 256, 144);
    });
    const { c } = await calibrate(await clipOf('creature-lines.mp4', frames));
    expect(c.samples.every((s) => s.used)).toBe(true);
    expect(cornerError(c.calib, resized(256, 144), 256, 144)).toBeLessThan(0.6);
  });

  it('finds the picture inside letterbox and pillarbox bars', async () => {
    // The layout (320 x 180) inside a 320 x 240 frame with 30 px bars top and bottom.
    const letter: ClipCalib = { sx: 1, sy: 1, tx: 0, ty: -30 };
    const lb = Array.from({ length: 8 }, (_, k) => frameAs(studioFrame(k), letter, 320, 240, [0, 0, 0]));
    const a = await calibrate(await clipOf('letterbox.mp4', lb));
    expect(cornerError(a.c.calib, letter, 320, 240)).toBeLessThan(0.6);
    expect(a.c.scale).toEqual({ x: 'frame', y: 'edges' });
    // 240 x 100 of picture in a 300 x 100 frame: 30 px bars left and right, squeezed.
    const pillar: ClipCalib = { sx: 320 / 240, sy: 1.8, tx: -30 * (320 / 240), ty: 0 };
    const pb = Array.from({ length: 8 }, (_, k) => frameAs(studioFrame(k), pillar, 300, 100, [0, 0, 0]));
    const b = await calibrate(await clipOf('pillarbox.mp4', pb));
    expect(cornerError(b.c.calib, pillar, 300, 100)).toBeLessThan(0.8);
    expect(b.c.scale.x).toBe('edges');
  });

  it("measures a zoomed-out, shifted framing from the layout's edges and a zoomed-in one from ref.png", async () => {
    // 0.9 of the size (288 x 162 px at (13, 6)), as ffmpeg's scale and pad make it: the
    // wall-coloured fill shows the floor band's ends.
    const out: ClipCalib = { sx: 320 / 288, sy: 180 / 162, tx: (-13 * 320) / 288, ty: (-6 * 180) / 162 };
    const zo = Array.from({ length: 8 }, (_, k) => frameAs(studioFrame(k), out, 320, 180, WALL));
    const a = await calibrate(await clipOf('zoom-out.mp4', zo));
    expect(cornerError(a.c.calib, out, 320, 180)).toBeLessThan(0.6);
    expect(a.c.scale).toEqual({ x: 'edges', y: 'edges' });
    // 6% closer: no edge in view, the studio seamless; the zoom comes from ref.png's creature.
    const zin: ClipCalib = { sx: 1 / 1.06, sy: 1 / 1.06, tx: 9, ty: 6 };
    const zi = Array.from({ length: 8 }, (_, k) => frameAs(studioFrame(k), zin, 320, 180, null));
    const b = await calibrate(await clipOf('zoom-in.mp4', zi));
    expect(b.c.scale).toEqual({ x: 'ref', y: 'ref' });
    expect(b.c.refZoom?.frame).toBe(0);
    expect(cornerError(b.c.calib, zin, 320, 180)).toBeLessThan(1);
    // The same after a fade in from the empty studio: not from frame 0 (no creature), from the
    // first frame that shows enough of it.
    const faded = zi.map((f, k) => {
      if (k >= 4) return f;
      const e = frameAs(studioBackdrop(small), zin, 320, 180, null);
      const data = f.data.map((v, i) => Math.round(e.data[i]! + ((v - e.data[i]!) * k) / 4));
      return { ...f, data };
    });
    const c = await calibrate(await clipOf('zoom-in-fade.mp4', faded));
    expect(c.c.scale).toEqual({ x: 'ref', y: 'ref' });
    expect(c.c.refZoom!.frame).toBeGreaterThan(0);
    expect(cornerError(c.c.calib, zin, 320, 180)).toBeLessThan(1.5);
  });

  it('follows a framing that slides and zooms through the clip', async () => {
    // 2% zoom and 6 px of slide over 24 frames, edges in view on every frame.
    const T = 24;
    const truth = (t: number): ClipCalib => {
      const z = 0.92 + (0.02 * t) / (T - 1);
      return { sx: 1 / z, sy: 1 / z, tx: -10 - (6 * t) / (T - 1), ty: -7 };
    };
    const frames = Array.from({ length: T }, (_, t) => frameAs(studioFrame(t), truth(t), 320, 180, WALL));
    const { c } = await calibrate(await clipOf('drift.mp4', frames));
    expect(c.drifts).toBe(true);
    for (let t = 0; t < T; t++)
      expect(cornerError(calibAt(c.frames, t), truth(t), 320, 180)).toBeLessThan(0.8);
    expect(c.drift.zoomX).toBeCloseTo(-100 * (0.02 / 0.94), 0);
    expect(c.drift.maxPx).toBeGreaterThan(3);
  });

  it('skips frames that fade in from a flat colour and a damaged frame', async () => {
    const rng = seededRandom(3);
    const frames = Array.from({ length: 16 }, (_, k) => {
      const f = resize(studioFrame(k), 256, 144);
      if (k < 3) {
        // A fade from the wall colour: nothing of the studio's lines on the first frames.
        const a = k / 8;
        for (let i = 0; i < f.data.length; i++)
          f.data[i] = Math.round(WALL[i % 3]! * (1 - a) + f.data[i]! * a);
      }
      if (k === 8) for (let i = 0; i < f.data.length; i++) f.data[i] = rng.int(256);
      return f;
    });
    const { c } = await calibrate(await clipOf('fade.mp4', frames));
    expect(cornerError(c.calib, resized(256, 144), 256, 144)).toBeLessThan(0.6);
    const skipped = c.samples.filter((s) => !s.used).map((s) => s.frame);
    expect(skipped).toContain(0);
    expect(skipped).toContain(8);
    expect(c.samples.find((s) => s.frame === 0)!.why).toMatch(/no divider|no ground row/);
  });

  it('reads rotation metadata and a rational, variable frame rate', async () => {
    const frames = Array.from({ length: 12 }, (_, k) => studioFrame(k));
    const plain = await clipOf('plain.mp4', frames, 30);
    const turned = path.join(dir, 'turned.mp4');
    const ff = findFfmpeg();
    // Coded a quarter turn clockwise, tagged to be shown turned back; and at 30000/1001 with frames dropped.
    await run(ff, [
      '-v',
      'error',
      '-y',
      '-i',
      plain,
      '-vf',
      'transpose=1',
      '-c:v',
      'libx264',
      '-crf',
      '8',
      `${turned}.tmp.mp4`,
    ]);
    await run(ff, [
      '-v',
      'error',
      '-y',
      '-i',
      `${turned}.tmp.mp4`,
      '-c',
      'copy',
      '-metadata:s:v:0',
      'rotate=90',
      turned,
    ]);
    const a = await calibrate(turned);
    expect(a.info).toMatchObject({ width: 320, height: 180, rotation: 90 });
    expect(cornerError(a.c.calib, resized(320, 180), 320, 180)).toBeLessThan(0.5);
    const vfr = path.join(dir, 'vfr.mp4');
    await run(ff, [
      '-v',
      'error',
      '-y',
      '-i',
      plain,
      '-vf',
      "settb=1001/30000,setpts=N*1001,select='not(eq(n\\,4))'",
      '-fps_mode',
      'vfr',
      '-c:v',
      'libx264',
      '-crf',
      '8',
      vfr,
    ]);
    const b = await calibrate(vfr);
    expect(b.info.vfr).toBe(true);
    expect(cornerError(b.c.calib, resized(320, 180), 320, 180)).toBeLessThan(0.5);
  });

  it('refuses a clip with no studio (a photo) and a clip of one view, saying what it measured', async () => {
    // A photo-like picture: a smooth gradient with seeded noise and blobs, no divider, no floor band.
    const rng = seededRandom(7);
    const photo = createImage(320, 180);
    for (let y = 0; y < 180; y++)
      for (let x = 0; x < 320; x++)
        for (let k = 0; k < 3; k++)
          photo.data[(y * 320 + x) * 3 + k] = Math.max(
            0,
            Math.min(255, 60 + 0.4 * x + 0.5 * y * (k + 1) * 0.5 + rng.uniform(-20, 20)),
          );
    const none = await clipOf(
      'photo.mp4',
      Array.from({ length: 8 }, () => photo),
    );
    const err = await calibrate(none).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CalibrationError);
    expect((err as Error).message).toMatch(
      /^detect: .*photo\.mp4: no calibration to the layout fits \(320 x 180, 8 frames measured: 0, 1, .*\); frame 0: no (divider|ground row)/,
    );
    expect((err as Error).message).toMatch(/A two-view clip shows the studio/);
    // The front view alone, stretched to the full frame: its divider sits at the right edge.
    const front = (k: number) => {
      const f = studioFrame(k);
      return frameAs(f, { sx: small.W_FRONT / 320, sy: 1, tx: 0, ty: 0 }, 320, 180, WALL);
    };
    const one = await clipOf(
      'one-view.mp4',
      Array.from({ length: 8 }, (_, k) => front(k)),
    );
    const err2 = await calibrate(one).catch((e: unknown) => e);
    expect(err2).toBeInstanceOf(CalibrationError);
    expect((err2 as Error).message).toMatch(
      /frame 0: the divider is at 0\.99 of the picture's width \(clip u 316\.\d\), the layout's at 0\.33: a clip of one view\?/,
    );
  });
});

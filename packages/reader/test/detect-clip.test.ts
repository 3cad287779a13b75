import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from '@mocap/anim-loop';
import { readDetections } from '@mocap/layout';
import { createImage, crop, encodeVideo, type RgbImage, writePng } from '@mocap/media';
import {
  createReader,
  type DetectEvent,
  detectClip,
  initBackend,
  saveReader,
  viewToInput,
  viewTransform,
} from '@mocap/reader';
import { BLOB_JOINTS, estimateCalib, frameToInput } from '@mocap/reader/internal';
import * as tf from '@tensorflow/tfjs-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { small, studioFrame } from './studio-clip.js';

const layout = small;
const names = BLOB_JOINTS.map((j) => j.name);

const blobFrame = (k: number): RgbImage => studioFrame(k, layout);

/** The frame a camera sees when layout u = sx * clip u + tx (bilinear; wall outside), `w` x `h` (the layout's size by default). */
function warp(
  src: RgbImage,
  sx: number,
  sy: number,
  tx: number,
  ty: number,
  w = src.width,
  h = src.height,
): RgbImage {
  const out = createImage(w, h, layout.colours.wall);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const u = sx * (x + 0.5) + tx - 0.5;
      const v = sy * (y + 0.5) + ty - 0.5;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= src.width || y0 + 1 >= src.height) continue;
      const fx = u - x0;
      const fy = v - y0;
      for (let c = 0; c < 3; c++) {
        const at = (a: number, b: number) => src.data[(b * src.width + a) * 3 + c]!;
        const top = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
        const bot = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
        out.data[(y * w + x) * 3 + c] = Math.round(top + (bot - top) * fy);
      }
    }
  return out;
}

function meanAbsDiff(a: Float32Array, b: Float32Array) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i]! - b[i]!);
  return s / a.length;
}

describe('detectClip', () => {
  let root = '';
  let readerDir = '';
  let ref = '';
  beforeAll(async () => {
    await initBackend();
    root = await mkdtemp(path.join(tmpdir(), 'reader-detect-'));
    readerDir = path.join(root, 'reader');
    const reader = await createReader({
      joints: names,
      inputSize: 64,
      backbone: { kind: 'cnn', widths: [8, 8] },
    });
    await saveReader(reader, readerDir);
    reader.dispose();
    ref = path.join(root, 'ref.png');
    await writePng(ref, blobFrame(0));
    await encodeVideo(
      path.join(root, 'clip.mp4'),
      Array.from({ length: 8 }, (_, k) => blobFrame(k)),
      { fps: 10, crf: 12 },
    );
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it('writes det.npz with the seed fields, calibrated against ref.png, without leaking tensors', async () => {
    const out = path.join(root, 'det.npz');
    const before = tf.memory().numTensors;
    const events: string[] = [];
    const r = await detectClip(
      { clip: path.join(root, 'clip.mp4'), reader: readerDir, ref, out, layout, joints: names },
      (e) => events.push(e.phase),
    );
    expect(tf.memory().numTensors).toBe(before);
    expect(r.backend).toBe('wasm');
    expect(events[0]).toBe('calib');
    expect(events.filter((e) => e === 'frames')).toHaveLength(2);
    const det = await readDetections(out);
    expect(det).toMatchObject({ names, fps: 10, frames: 8 });
    expect(det.frontUv).toHaveLength(8 * 4 * 2);
    // A framing that holds still: no per-frame calibration in det.npz.
    expect(det.calibFrames).toBeUndefined();
    expect(r.calibration?.drifts).toBe(false);
    // The clip is the layout: the fitted calibration is the identity to a fraction of a pixel.
    const [sx, sy, tx, ty] = det.calib;
    expect(Math.abs(sx! * 320 + tx! - 320)).toBeLessThan(0.5);
    expect(Math.abs(tx!)).toBeLessThan(0.5);
    expect(Math.abs(sy! * 180 + ty! - 180)).toBeLessThan(0.5);
    expect(Math.abs(ty!)).toBeLessThan(0.5);
    for (let i = 0; i < 8 * 4; i++) {
      expect(det.frontUv[2 * i]).toBeGreaterThanOrEqual(-10);
      expect(det.frontUv[2 * i]).toBeLessThanOrEqual(layout.W_FRONT + 10);
      expect(det.sideUv[2 * i]).toBeGreaterThanOrEqual(layout.W_FRONT - 30);
    }
  });

  it('gives each peak its margin over a competing peak as confidence by default, its value with peakConf peak', async () => {
    const base = {
      clip: path.join(root, 'clip.mp4'),
      reader: readerDir,
      ref,
      layout,
      joints: names,
      maxFrames: 2,
    };
    const margin = (await detectClip(base)).detections;
    const peak = (await detectClip({ ...base, peakConf: 'peak' })).detections;
    expect(Array.from(margin.frontUv)).toEqual(Array.from(peak.frontUv));
    for (const [m, p] of [
      [margin.frontConf, peak.frontConf],
      [margin.sideConf, peak.sideConf],
    ] as const) {
      for (let i = 0; i < m.length; i++) {
        expect(m[i]).toBeGreaterThanOrEqual(0);
        expect(m[i]).toBeLessThanOrEqual((p[i] as number) + 1e-7);
      }
    }
  });

  it('samples the same model input from a scaled, shifted clip once calibrated as training does from the views', () => {
    const frame = blobFrame(2);
    const t = viewTransform(layout, 'side', 64, 16);
    const train = viewToInput(crop(frame, t.x0, 0, t.width, t.height), 64, layout.colours.wall).data;
    const trainF = Float32Array.from(train, (v) => v / 255);
    const direct = new Float32Array(64 * 64 * 3);
    frameToInput(frame, { sx: 1, sy: 1, tx: 0, ty: 0 }, t, layout, direct, 0);
    // The same area filter: equal up to media's rounding to bytes.
    let worst = 0;
    for (let i = 0; i < direct.length; i++) worst = Math.max(worst, Math.abs(direct[i]! - trainF[i]!));
    expect(worst).toBeLessThan(0.6 / 255);
    // clip u = 0.95 u + 6, v = 0.95 v - 4.
    const clip = warp(frame, 1 / 0.95, 1 / 0.95, -6 / 0.95, 4 / 0.95);
    const c = estimateCalib(clip, frame);
    expect(Math.abs(c.sx - 1 / 0.95)).toBeLessThan(0.005);
    expect(Math.abs(c.tx + 6 / 0.95)).toBeLessThan(0.5);
    const fromClip = new Float32Array(64 * 64 * 3);
    frameToInput(clip, c, t, layout, fromClip, 0);
    expect(meanAbsDiff(fromClip, direct)).toBeLessThan(0.01);
  });

  it('takes a clip of another size, rate and framing as it comes, and records a drifting framing per frame', async () => {
    // 208 x 120 (832 x 480 at quarter size), 16 fps, the framing sliding 5 layout px and zooming
    // 2% over 12 frames, the layout's edges in view (a wall-coloured fill).
    const T = 12;
    const truth = (t: number) => {
      const z = 0.9 + (0.02 * t) / (T - 1);
      const sx = 320 / (208 * z);
      const sy = 180 / (120 * z);
      return { sx, sy, tx: -12 - (5 * t) / (T - 1), ty: -8 };
    };
    const frames = Array.from({ length: T }, (_, t) => {
      const c = truth(t);
      return warp(blobFrame(t), c.sx, c.sy, c.tx, c.ty, 208, 120);
    });
    const clip = path.join(root, 'drift.mp4');
    await encodeVideo(clip, frames, { fps: 16, crf: 8 });
    const out = path.join(root, 'drift-det.npz');
    const events: DetectEvent[] = [];
    const r = await detectClip({ clip, reader: readerDir, ref, out, layout, joints: names }, (e) =>
      events.push(e),
    );
    const cal = events.find((e) => e.phase === 'calib');
    expect(cal?.phase === 'calib' && cal.calibration?.drifts).toBe(true);
    const det = await readDetections(out);
    expect(det).toMatchObject({ fps: 16, frames: T });
    expect(det.calibFrames).toHaveLength(4 * T);
    for (const t of [0, 6, 11]) {
      const c = truth(t);
      const got = det.calibFrames!.subarray(4 * t, 4 * t + 4);
      // The frame's far corner lands within a layout px of where it should.
      expect(Math.abs(got[0]! * 208 + got[2]! - (c.sx * 208 + c.tx))).toBeLessThan(1);
      expect(Math.abs(got[1]! * 120 + got[3]! - (c.sy * 120 + c.ty))).toBeLessThan(1);
    }
    expect(r.calibration?.drift.maxPx).toBeGreaterThan(2);
  });

  it('fails clearly on a non-video, a clip of 3 frames, a photo, a missing ref.png and other joint names', async () => {
    await expect(detectClip({ clip: 'c.mp4', reader: readerDir, batchFrames: 0 })).rejects.toThrow(
      /detect: options\.batchFrames: .* \(got 0\)/,
    );
    await expect(detectClip({ clip: 'c.mp4', reader: readerDir })).rejects.toThrow(
      "detect: Expected options.ref (ref.png) for calib 'auto', got none.",
    );
    const junk = path.join(root, 'junk.mp4');
    await writeFile(junk, 'not a video');
    const base = { reader: readerDir, ref, layout };
    await expect(detectClip({ ...base, clip: junk })).rejects.toThrow(/probeVideo: .*junk\.mp4: not a video/);
    const short = path.join(root, 'short.mp4');
    await encodeVideo(short, [0, 1, 2].map(blobFrame), { fps: 10 });
    await expect(detectClip({ ...base, clip: short })).rejects.toThrow(
      /detect: .*short\.mp4: the clip has 3 frames \(320 x 180, 10\.000 fps\); detect reads clips of 8 frames or more\./,
    );
    // A photo-like picture (seeded noise over a gradient): no studio to calibrate against.
    const rng = seededRandom(5);
    const photo = createImage(300, 200);
    for (let i = 0; i < photo.data.length; i++)
      photo.data[i] = Math.round(40 + ((i / 3) % 300) * 0.5 + rng.uniform(0, 60));
    const none = path.join(root, 'photo.mp4');
    await encodeVideo(
      none,
      Array.from({ length: 8 }, () => photo),
      { fps: 10 },
    );
    await expect(detectClip({ ...base, clip: none })).rejects.toThrow(
      /detect: .*photo\.mp4: no calibration to the layout fits \(300 x 200, 8 frames measured: 0, 1, 2, 3, 4, 5, 6, 7\); frame 0: no (divider|ground row) \(/,
    );
    const clip = path.join(root, 'clip.mp4');
    await expect(detectClip({ ...base, clip, ref: path.join(root, 'nope.png') })).rejects.toThrow(
      /readPng: .*nope\.png/,
    );
    await expect(detectClip({ ...base, clip, joints: ['nose', 'tail'] })).rejects.toThrow(
      /this reader was trained for \["head","tail","lfoot","rfoot"\], the creature has \["nose","tail"\]/,
    );
  });
});

import path from 'node:path';
import type { Detections } from '@mocap/layout';
import { createImage, decodeVideo, getPixel, probeVideo, writeShowcase } from '@mocap/media';
import { jointPalette } from '@mocap/media/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP, syntheticClipFolder } from './helpers.js';

let dir: string;
let clip: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, clip, cleanup } = await syntheticClipFolder({ crf: 4, preset: 'ultrafast' }));
});
afterAll(() => cleanup());

/** Two joints, front view only; calib says layout px = 2 x clip px. */
function detections(frames: number): Detections {
  const names = ['nose', 'tail'];
  const frontUv = new Float32Array(frames * 4);
  const sideUv = new Float32Array(frames * 4).fill(Number.NaN);
  const frontConf = new Float32Array(frames * 2).fill(1);
  const sideConf = new Float32Array(frames * 2);
  for (let t = 0; t < frames; t++) frontUv.set([60, 140, 60, 60], t * 4);
  return {
    names,
    fps: CLIP.fps,
    frames,
    frontUv,
    sideUv,
    frontConf,
    sideConf,
    calib: Float64Array.of(2, 2, 0, 0),
  };
}

function near(a: number[], b: number[], tol: number): boolean {
  return a.every((v, i) => Math.abs(v - (b[i] as number)) <= tol);
}

describe('writeShowcase', () => {
  it('puts the clip with its detections beside the renders, as long as the shorter source', async () => {
    const out = path.join(dir, 'showcase.mp4');
    const renders = Array.from({ length: 20 }, () => createImage(64, 96, [20, 200, 40]));
    const n = await writeShowcase(out, clip, renders, {
      fps: CLIP.fps,
      detections: detections(CLIP.frames),
      bones: [['nose', 'tail']],
      radius: 4,
      crf: 4,
      preset: 'ultrafast',
      height: 96,
    });
    expect(n).toBe(20);
    const info = await probeVideo(out);
    expect(info).toMatchObject({ width: 160 + 64, height: 96, frames: 20 });
    const nose = jointPalette(2)[0]!;
    let t = 0;
    for await (const f of decodeVideo(out)) {
      // The nose at layout (60, 140) is clip (30, 70); the bone runs up to the tail at clip (30, 30).
      expect(near(getPixel(f, 30, 70), nose, 12)).toBe(true);
      expect(near(getPixel(f, 30, 50), [255, 255, 255], 12)).toBe(true);
      expect(near(getPixel(f, 2, 90), [128, 130, 134], 6)).toBe(true);
      expect(near(getPixel(f, 190, 50), [20, 200, 40], 6)).toBe(true);
      t++;
    }
    expect(t).toBe(20);
  });

  it('maps each frame through its own calibration when the framing drifts (calibFrames)', async () => {
    const out = path.join(dir, 'drift.mp4');
    const det = detections(4);
    // Frames 0-1 at layout = 2 x clip, frames 2-3 shifted by 20 layout px: the nose at clip (20, 70).
    det.calibFrames = Float64Array.of(2, 2, 0, 0, 2, 2, 0, 0, 2, 2, 20, 0, 2, 2, 20, 0);
    const renders = Array.from({ length: 4 }, () => createImage(64, 96, [20, 200, 40]));
    await writeShowcase(out, clip, renders, {
      fps: CLIP.fps,
      detections: det,
      radius: 4,
      crf: 4,
      preset: 'ultrafast',
      height: 96,
    });
    const nose = jointPalette(2)[0]!;
    const frames = [];
    for await (const f of decodeVideo(out)) frames.push(f);
    expect(near(getPixel(frames[0]!, 30, 70), nose, 12)).toBe(true);
    expect(near(getPixel(frames[3]!, 20, 70), nose, 12)).toBe(true);
    expect(near(getPixel(frames[3]!, 30, 70), nose, 12)).toBe(false);
  });

  it('names a bone whose joint the detections lack', async () => {
    await expect(
      writeShowcase(path.join(dir, 'x.mp4'), clip, clip, {
        fps: 24,
        detections: detections(2),
        bones: [['nose', 'ear']],
      }),
    ).rejects.toThrow('writeShowcase: bones[0]: "ear" is not a joint of the detections.');
  });
});

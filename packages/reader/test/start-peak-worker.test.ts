import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Layout, worldToFront, worldToSide } from '@mocap/layout';
import { encodeVideo, fillCircle, type RgbImage, studioBackdrop, writePng } from '@mocap/media';
import { createReader, detectClip, initBackend, saveReader } from '@mocap/reader';
import { BLOB_JOINTS, startPeakWorker } from '@mocap/reader/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const layout = Layout.parse({
  WIDTH: 320,
  HEIGHT: 180,
  W_FRONT: 106,
  W_SIDE: 214,
  GROUND_V: 160,
  M_PER_PX: 1.9 / 180,
});
const names = BLOB_JOINTS.map((j) => j.name);

function blobFrame(k: number): RgbImage {
  const img = studioBackdrop(layout);
  BLOB_JOINTS.forEach((j, i) => {
    const p = [0.3 * Math.cos(i + 0.2 * k), 0.5 * Math.sin(i * 2 + 0.1 * k), 0.3 + 0.25 * i];
    fillCircle(img, ...worldToFront(p, layout), 9, [...j.colour]);
    fillCircle(img, ...worldToSide(p, layout), 9, [...j.colour]);
  });
  return img;
}

describe('startPeakWorker', () => {
  let root = '';
  let reader = '';
  let ref = '';
  let clip = '';
  beforeAll(async () => {
    await initBackend();
    root = await mkdtemp(path.join(tmpdir(), 'reader-peak-worker-'));
    reader = path.join(root, 'reader');
    const r = await createReader({ joints: names, inputSize: 64, backbone: { kind: 'cnn', widths: [8, 8] } });
    await saveReader(r, reader);
    r.dispose();
    ref = path.join(root, 'ref.png');
    await writePng(ref, blobFrame(0));
    clip = path.join(root, 'clip.mp4');
    await encodeVideo(
      clip,
      Array.from({ length: 8 }, (_, k) => blobFrame(k)),
      { fps: 10, crf: 12 },
    );
  });
  afterAll(async () => rm(root, { recursive: true, force: true }));

  it("reads the same peaks and calibration as detectClip's stage 1, batch by batch, in a worker thread", async () => {
    const w = startPeakWorker({ clip, reader, ref, layout, joints: names, calib: 'auto', batchFrames: 4 });
    try {
      const { calibration, calib, frames } = await w.calib;
      expect(calibration).not.toBeNull();
      expect(frames).toHaveLength(8 * 4);
      expect(await w.ready(0)).toBe(true);
      expect(w.peaks.frontUv.length).toBeGreaterThanOrEqual(4 * names.length * 2);
      expect(await w.ready(7)).toBe(true);
      expect(await w.ready(8)).toBe(false);
      expect(await w.done).toEqual({ backend: 'wasm', frames: 8 });
      const d = await detectClip({ clip, reader, ref, layout, joints: names });
      expect(Array.from(d.detections.calib)).toEqual([calib.sx, calib.sy, calib.tx, calib.ty]);
      for (const k of ['frontUv', 'sideUv', 'frontConf', 'sideConf'] as const) {
        expect(w.peaks[k]).toEqual(Array.from(d.detections[k]));
      }
    } finally {
      await w.terminate();
    }
  });

  it("takes detectClip's peakConf: the peak value instead of its margin", async () => {
    const w = startPeakWorker({ clip, reader, layout, calib: 'identity', batchFrames: 4, peakConf: 'peak' });
    try {
      await w.done;
      const d = await detectClip({ clip, reader, layout, calib: 'identity', peakConf: 'peak' });
      expect(w.peaks.frontConf).toEqual(Array.from(d.detections.frontConf));
      expect(w.peaks.sideConf).toEqual(Array.from(d.detections.sideConf));
    } finally {
      await w.terminate();
    }
  });

  it("keeps a refused clip's CalibrationError (name and message) across the thread", async () => {
    const grey = path.join(root, 'grey.mp4');
    await encodeVideo(
      grey,
      Array.from({ length: 8 }, () => studioBackdrop({ ...layout, DIVIDER_PX: 0 })),
      { fps: 10 },
    );
    const w = startPeakWorker({ clip: grey, reader, ref, layout, calib: 'auto', batchFrames: 4 });
    try {
      const err = await w.calib.catch((e: Error) => e);
      expect((err as Error).name).toBe('CalibrationError');
      expect((err as Error).message).toMatch(/grey\.mp4: no calibration to the layout fits .* no divider/);
    } finally {
      await w.terminate();
    }
  });

  it('passes a failure in the worker on to whoever waits', async () => {
    const junk = path.join(root, 'junk.mp4');
    await writeFile(junk, 'not a video');
    const w = startPeakWorker({ clip: junk, reader, layout, calib: 'identity', batchFrames: 4 });
    try {
      await expect(w.calib).rejects.toThrow(/junk\.mp4/);
      await expect(w.ready(0)).rejects.toThrow(/junk\.mp4/);
      await expect(w.done).rejects.toThrow(/junk\.mp4/);
    } finally {
      await w.terminate();
    }
  });
});

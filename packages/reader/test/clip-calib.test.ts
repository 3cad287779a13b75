import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Layout } from '@mocap/layout';
import { encodeVideo, probeVideo, type RgbImage, type VideoInfo } from '@mocap/media';
import { calibAt, clipCalib } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { small, studioFrame } from './studio-clip.js';

const layout = Layout.parse({});
const info = (width: number, height: number): VideoInfo => ({
  width,
  height,
  coded: { width, height },
  rotation: 0,
  vfr: false,
  fps: 30,
  fpsRational: { num: 30, den: 1 },
  frames: 10,
  duration: 1 / 3,
  codec: 'h264',
  format: 'mp4',
});

describe('clipCalib', () => {
  it('takes an identity clip as the layout, at most resized, on every frame', async () => {
    const c = await clipCalib('identity', 'clip.mp4', info(640, 360), 10, layout, undefined);
    expect(c.calibration).toBeNull();
    expect(c.calib).toEqual({ sx: layout.WIDTH / 640, sy: layout.HEIGHT / 360, tx: 0, ty: 0 });
    expect(c.frames).toHaveLength(40);
    expect(calibAt(c.frames, 9)).toEqual(c.calib);
  });

  it('takes a given [sx, sy, tx, ty] as it is', async () => {
    const c = await clipCalib([0.95, 0.96, 12, -8], 'clip.mp4', info(1280, 720), 3, layout, undefined);
    expect(c.calib).toEqual({ sx: 0.95, sy: 0.96, tx: 12, ty: -8 });
    // Past the end of the track: its last frame.
    expect(calibAt(c.frames, 7)).toEqual(c.calib);
  });

  it("says that calib 'auto' needs ref.png", async () => {
    await expect(clipCalib('auto', 'clip.mp4', info(1280, 720), 10, layout, undefined)).rejects.toThrow(
      /ref\.png.*'auto'/,
    );
  });

  it("measures how much of the frame before a ghosted clip's frames hold ('auto')", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reader-ghost-'));
    try {
      const clean = Array.from({ length: 30 }, (_, k) => studioFrame(k));
      const ghosted: RgbImage[] = clean.map((f, t) => {
        if (t === 0) return f;
        const p = clean[t - 1]!;
        const data = new Uint8Array(f.data.length);
        for (let i = 0; i < data.length; i++)
          data[i] = Math.round(f.data[i]! + 0.3 * (p.data[i]! - f.data[i]!));
        return { width: f.width, height: f.height, data };
      });
      const found: number[] = [];
      for (const [name, frames] of [
        ['clean.mp4', clean],
        ['ghost.mp4', ghosted],
      ] as const) {
        const file = path.join(dir, name);
        await encodeVideo(file, frames, { fps: 10, crf: 8, preset: 'ultrafast' });
        const i = await probeVideo(file);
        const c = await clipCalib('auto', file, i, i.frames, small, studioFrame(0));
        expect(c.calibration?.ghost).toBe(c.ghost);
        found.push(c.ghost!.blend);
      }
      expect(found[0]).toBe(0);
      expect(Math.abs(found[1]! - 0.3)).toBeLessThan(0.03);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

import { Layout } from '@mocap/layout';
import type { VideoInfo } from '@mocap/media';
import { calibAt, clipCalib } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

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
});

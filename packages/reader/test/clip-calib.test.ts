import { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import { clipCalib } from '@mocap/reader';
import { describe, expect, it } from 'vitest';

const layout = Layout.parse({});
const frame = (width: number, height: number): RgbImage => ({
  width,
  height,
  data: new Uint8Array(width * height * 3),
});

describe('clipCalib', () => {
  it('takes an identity clip as the layout, at most resized', () => {
    expect(clipCalib('identity', frame(640, 360), layout, undefined)).toEqual({
      calibration: null,
      calib: { sx: layout.WIDTH / 640, sy: layout.HEIGHT / 360, tx: 0, ty: 0 },
    });
  });

  it('takes a given [sx, sy, tx, ty] as it is', () => {
    expect(clipCalib([0.95, 0.96, 12, -8], frame(1280, 720), layout, undefined).calib).toEqual({
      sx: 0.95,
      sy: 0.96,
      tx: 12,
      ty: -8,
    });
  });

  it("says that calib 'auto' needs ref.png", () => {
    expect(() => clipCalib('auto', frame(1280, 720), layout, undefined)).toThrow(/ref\.png.*'auto'/);
  });
});

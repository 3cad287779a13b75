import { createImage, fillRect, type RgbImage } from '@mocap/media';
import { ghostBlend } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

/** A studio-grey frame with a dark and a bright block sliding 3 px a frame (the creature's legs). */
function scene(t: number): RgbImage {
  const img = createImage(96, 64, [130, 130, 130]);
  fillRect(img, 4 + 3 * t, 10, 20, 24, [40, 50, 60]);
  fillRect(img, 70 - 2 * t, 36, 16, 20, [210, 200, 190]);
  return img;
}

/** Frame t blended with frame t-1 by `blend`, as a video model ghosts (frame 0 kept). */
function ghosted(frames: RgbImage[], blend: number): RgbImage[] {
  return frames.map((f, t) => {
    if (t === 0) return f;
    const prev = frames[t - 1]!;
    const data = new Uint8Array(f.data.length);
    for (let i = 0; i < data.length; i++)
      data[i] = Math.round(f.data[i]! + blend * (prev.data[i]! - f.data[i]!));
    return { width: f.width, height: f.height, data };
  });
}

const clip = Array.from({ length: 20 }, (_, t) => scene(t));

describe('ghostBlend', () => {
  it('finds no blend on a clean clip', async () => {
    const g = await ghostBlend(clip, 1);
    expect(g.blend).toBe(0);
    expect(g.steps).toBeGreaterThan(200);
  });

  it.each([0.2, 0.3, 0.4])('finds a blend of %s with the frame before', async (blend) => {
    const g = await ghostBlend(ghosted(clip, blend), 1);
    expect(g.blend).toBeCloseTo(blend, 1);
    expect(Math.abs(g.blend - blend)).toBeLessThan(0.02);
  });

  it('finds no blend on a clean clip whose motion blur smears the cuts', async () => {
    const blurred = Array.from({ length: 20 }, (_, t) => {
      const subs = [0, 0.25, 0.5, 0.75].map((d) => scene(t + d));
      const data = new Uint8Array(subs[0]!.data.length);
      for (let i = 0; i < data.length; i++)
        data[i] = Math.round(subs.reduce((a, f) => a + f.data[i]!, 0) / 4);
      return { width: 96, height: 64, data };
    });
    expect((await ghostBlend(blurred, 1)).blend).toBe(0);
  });

  it("reads the ghost past H.264's bi-predicted blocks (the mean of the frames either side)", async () => {
    // Every other frame's left three quarters bi-predicted with its residual quantised away.
    const bipredict = (frames: RgbImage[]) =>
      frames.map((f, t) => {
        if (t % 2 === 0 || t === frames.length - 1) return f;
        const data = f.data.slice();
        for (let y = 0; y < f.height; y++)
          for (let i = 3 * y * f.width; i < 3 * (y * f.width + (f.width * 3) / 4); i++)
            data[i] = Math.round((frames[t - 1]!.data[i]! + frames[t + 1]!.data[i]!) / 2);
        return { width: f.width, height: f.height, data };
      });
    const found = await ghostBlend(bipredict(ghosted(clip, 0.3)), 1);
    expect(Math.abs(found.blend - 0.3)).toBeLessThan(0.03);
    expect((await ghostBlend(bipredict(clip), 1)).blend).toBe(0);
  });

  it('says nothing without enough steps (a still clip, or under five frames)', async () => {
    expect(
      (
        await ghostBlend(
          Array.from({ length: 10 }, () => scene(0)),
          1,
        )
      ).blend,
    ).toBe(0);
    expect((await ghostBlend(ghosted(clip, 0.3).slice(0, 4), 1)).steps).toBe(0);
  });
});

import { createImage, fillRect, type RgbImage } from '@mocap/media';
import { deghostFrames } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';

function scene(t: number): RgbImage {
  const img = createImage(48, 32, [130, 130, 130]);
  fillRect(img, 2 + 3 * t, 6, 12, 14, [40, 50, 60]);
  return img;
}

async function* stream(frames: RgbImage[]): AsyncGenerator<RgbImage> {
  yield* frames;
}

async function collect(it: AsyncIterable<RgbImage>): Promise<RgbImage[]> {
  const out: RgbImage[] = [];
  for await (const f of it) out.push(f);
  return out;
}

const maxDiff = (a: RgbImage, b: RgbImage) =>
  a.data.reduce((m, v, i) => Math.max(m, Math.abs(v - b.data[i]!)), 0);

describe('deghostFrames', () => {
  const clean = Array.from({ length: 8 }, (_, t) => scene(t));
  const blend = 0.35;
  const ghosted = clean.map((f, t) => {
    if (t === 0) return f;
    const p = clean[t - 1]!;
    const data = new Uint8Array(f.data.length);
    for (let i = 0; i < data.length; i++)
      data[i] = Math.round(f.data[i]! + blend * (p.data[i]! - f.data[i]!));
    return { width: f.width, height: f.height, data };
  });

  it('restores each frame from the ghosted clip to within the rounding', async () => {
    const out = await collect(deghostFrames(stream(ghosted), blend));
    expect(out).toHaveLength(clean.length);
    for (const [t, f] of out.entries()) expect(maxDiff(f, clean[t]!)).toBeLessThanOrEqual(2);
    expect(maxDiff(ghosted[3]!, clean[3]!)).toBeGreaterThan(20);
  });

  it('passes the frames through untouched at blend 0', async () => {
    const out = await collect(deghostFrames(stream(clean), 0));
    for (const [t, f] of out.entries()) expect(f).toBe(clean[t]);
  });

  it('refuses a blend of 0.5 or more (the inverse would not settle)', async () => {
    await expect(collect(deghostFrames(stream(clean), 0.5))).rejects.toThrow(/blend in \[0, 0.5\)/);
  });
});

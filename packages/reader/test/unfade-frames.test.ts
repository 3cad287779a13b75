import { type RgbImage, studioBackdrop } from '@mocap/media';
import type { ClipFade } from '@mocap/reader';
import { unfadeFrames } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { small, studioFrame } from './studio-clip.js';

const identity = () => ({ sx: 1, sy: 1, tx: 0, ty: 0 });

/** `to` blended toward `from` by 1 - a, rounded as a video's bytes are. */
function blend(from: RgbImage, to: RgbImage, a: number): RgbImage {
  const data = new Uint8Array(to.data.length);
  for (let i = 0; i < data.length; i++)
    data[i] = Math.round(from.data[i]! + (to.data[i]! - from.data[i]!) * a);
  return { width: to.width, height: to.height, data };
}

async function* stream(frames: RgbImage[]): AsyncGenerator<RgbImage> {
  yield* frames;
}

async function run(frames: RgbImage[]): Promise<{ out: RgbImage[]; fade: ClipFade }> {
  const fade: ClipFade = { visibility: [] };
  const out: RgbImage[] = [];
  for await (const f of unfadeFrames(stream(frames), small, identity, fade)) out.push(f);
  return { out, fade };
}

/** Mean absolute byte difference. */
function meanDiff(a: RgbImage, b: RgbImage): number {
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += Math.abs(a.data[i]! - b.data[i]!);
  return s / a.data.length;
}

const clean = Array.from({ length: 20 }, (_, k) => studioFrame(k));

describe('unfadeFrames', () => {
  it('passes a clip whose first frame shows the creature unchanged', async () => {
    const { out, fade } = await run(clean);
    expect(fade.visibility).toEqual([]);
    expect(out).toHaveLength(clean.length);
    for (const [t, f] of out.entries()) expect(f).toBe(clean[t]);
  });

  for (const [name, source] of [
    ['the empty studio', studioBackdrop(small)],
    [
      'black',
      { width: small.WIDTH, height: small.HEIGHT, data: new Uint8Array(3 * small.WIDTH * small.HEIGHT) },
    ],
  ] as const) {
    it(`measures and restores a fade-in from ${name}`, async () => {
      const F = 8;
      const faded = clean.map((f, t) => (t < F ? blend(source, f, t / F) : f));
      const { out, fade } = await run(faded);
      // every frame of the fade shows under 0.9 of the creature: 0 .. 7 / 8
      expect(fade.visibility).toHaveLength(F);
      fade.visibility.forEach((v, t) => {
        if (t / F < 0.2) expect(v).toBe(0);
        else if (t / F >= 0.3) expect(Math.abs(v - t / F)).toBeLessThan(0.06);
      });
      for (let t = 3; t < fade.visibility.length; t++) {
        // as far from the clear frame as rounding, magnified by 1 / v, allows
        expect(meanDiff(out[t]!, clean[t]!)).toBeLessThan(meanDiff(faded[t]!, clean[t]!) / 4);
      }
      for (let t = F; t < clean.length; t++) expect(out[t]).toBe(faded[t]);
    });
  }

  it('reads a clip shorter than its window', async () => {
    const faded = clean.slice(0, 6).map((f, t) => (t < 3 ? blend(studioBackdrop(small), f, t / 3) : f));
    const { out, fade } = await run(faded);
    expect(out).toHaveLength(6);
    expect(fade.visibility[0]).toBe(0);
    expect(fade.visibility.length).toBeLessThanOrEqual(3);
  });

  // longer than the fade's window, so a source read to its end is not what closes it
  const long = [...clean, ...clean];
  for (const [name, faded] of [
    ['held back', long.map((f, t) => (t < 8 ? blend(studioBackdrop(small), f, t / 8) : f))],
    ['passed through', long],
  ] as const) {
    it(`closes its source when the reader stops early, frames ${name}`, async () => {
      let closed = false;
      async function* source(): AsyncGenerator<RgbImage> {
        try {
          yield* faded;
        } finally {
          closed = true;
        }
      }
      const fade: ClipFade = { visibility: [] };
      let n = 0;
      for await (const _ of unfadeFrames(source(), small, identity, fade)) if (++n === 10) break;
      expect(n).toBe(10);
      expect(closed).toBe(true);
    });
  }
});

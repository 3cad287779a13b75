import { seededRandom } from '@mocap/anim-loop';
import { DEFAULT_LAYOUT } from '@mocap/layout';
import { boxBlur, fitColourModel, frameNoise, segmentImage } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { syntheticFrame } from './synthetic-frame.js';

const L = DEFAULT_LAYOUT;

/** The frame with seeded Gaussian noise of `sd` levels on every channel of every pixel. */
function noisy(image: { width: number; height: number; data: Uint8Array }, sd: number, seed: number) {
  const rng = seededRandom(seed);
  const data = Uint8Array.from(image.data, (v) =>
    Math.min(255, Math.max(0, Math.round(v + sd * rng.normal()))),
  );
  return { width: image.width, height: image.height, data };
}

/** Pixels labelled as creature where the truth is backdrop (the speckle noise leaves). */
function speckle(labels: Uint8Array, truth: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < truth.length; i++) if (truth[i] === 0 && labels[i] !== 0) n++;
  return n;
}

describe('frameNoise', () => {
  it('reads 0 on a flat wall and about the noise added to it', () => {
    const data = new Uint8Array(L.WIDTH * L.HEIGHT * 3);
    for (let i = 0; i < data.length; i += 3) data.set(L.colours.wall, i);
    const flat = { width: L.WIDTH, height: L.HEIGHT, data };
    expect(frameNoise(flat, L)).toBe(0);
    for (const sd of [3, 8, 14]) expect(frameNoise(noisy(flat, sd, sd), L)).toBeCloseTo(sd, 0);
  });

  it('names the frame size it expected', () => {
    expect(() => frameNoise({ width: 10, height: 10, data: new Uint8Array(300) }, L)).toThrow(
      /1280 x 720.*10 x 10/,
    );
  });

  it('with the box blur, keeps grain from labelling the backdrop as creature', () => {
    const model = fitColourModel([syntheticFrame(L, 1), syntheticFrame(L, 2)], L, { seed: 3 });
    const { image, labels: truth } = syntheticFrame(L, 5);
    const grainy = noisy(image, 14, 7);
    const labels = new Uint8Array(truth.length);
    const clean = speckle(segmentImage(labels, model, image, L), truth);
    const raw = speckle(segmentImage(labels, model, grainy, L), truth);
    const smoothed = boxBlur(
      { width: image.width, height: image.height, data: new Uint8Array(image.data.length) },
      grainy,
      3,
    );
    const blurred = speckle(segmentImage(labels, model, smoothed, L), truth);
    expect(raw).toBeGreaterThan(20 * (clean + 100));
    expect(blurred).toBeLessThan(raw / 20);
  });
});

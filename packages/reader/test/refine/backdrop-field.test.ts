import { DEFAULT_LAYOUT } from '@mocap/layout';
import { backdropField, fitColourModel, segmentImage } from '@mocap/reader/internal';
import { describe, expect, it } from 'vitest';
import { vignetted } from '../studio-clip.js';
import { syntheticFrame } from './synthetic-frame.js';

const L = DEFAULT_LAYOUT;

function backdropErrors(labels: Uint8Array, truth: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < truth.length; i++) if ((truth[i] === 0) !== (labels[i] === 0)) n++;
  return n;
}

describe('backdropField', () => {
  const model = fitColourModel([syntheticFrame(L, 1), syntheticFrame(L, 2)], L, { seed: 3 });

  it('is null where the light is even', () => {
    expect(backdropField(syntheticFrame(L, 5).image, L, model.reference)).toBeNull();
  });

  it('fits a vignette around the creature, and the labels follow the creature, not the dark corners', () => {
    const { image, labels: truth } = syntheticFrame(L, 5);
    const dark = vignetted(image, Math.PI / 5);
    const field = backdropField(dark, L, model.reference);
    expect(field).not.toBeNull();
    expect(field!.spread).toBeGreaterThan(0.3);
    // a wall pixel of a corner and of the middle come back to the reference wall colour
    for (const [x, y] of [
      [5, 5],
      [700, 40],
      [1270, 10],
    ]) {
      const g = 3 * (Math.floor(y / field!.block) * field!.columns + Math.floor(x / field!.block));
      const i = 3 * (y * L.WIDTH + x);
      for (let c = 0; c < 3; c++)
        expect(Math.abs((dark.data[i + c] * field!.gains[g + c]) / model.reference[c] - 1)).toBeLessThan(
          0.08,
        );
    }
    const labels = new Uint8Array(truth.length);
    const plain = backdropErrors(segmentImage(labels, model, dark, L), truth);
    const lit = backdropErrors(segmentImage(labels, model, dark, L, field), truth);
    const even = backdropErrors(segmentImage(labels, model, image, L), truth);
    expect(plain).toBeGreaterThan(50_000);
    expect(lit).toBeLessThan(even + 2_000);
  });

  it('names the frame size it expected', () => {
    expect(() =>
      backdropField({ width: 10, height: 10, data: new Uint8Array(300) }, L, model.reference),
    ).toThrow(/1280 x 720.*10 x 10/);
  });
});

import { seededRandom } from '@mocap/anim-loop';
import { PNG } from 'pngjs';

/** Colours of a procedural coat: back, belly, and how strong the stripes and speckles are. */
export interface CoatColours {
  back: [number, number, number];
  belly: [number, number, number];
  /** 0..1. @default 0.15 */
  stripes?: number;
  /** 0..1. @default 0.1 */
  speckle?: number;
}

/**
 * A seeded size x size coat texture as PNG bytes: u runs around a tube (0 on top, 0.5 underneath),
 * so the back colour sits at the left and right edges and the belly colour in the middle; soft
 * stripes run along v; per-texel speckle from the seed.
 */
export function furTexture(coat: CoatColours, seed: number, size = 256): Uint8Array {
  const rng = seededRandom(seed);
  const png = new PNG({ width: size, height: size, colorType: 2 });
  const phase = rng.next() * Math.PI * 2;
  for (let y = 0; y < size; y++) {
    const stripe = 0.5 + 0.5 * Math.sin((y / size) * Math.PI * 24 + phase + 2 * Math.sin((y / size) * 7));
    for (let x = 0; x < size; x++) {
      const u = x / size;
      const belly = Math.max(0, Math.min(1, (0.5 - Math.abs(Math.cos(Math.PI * u)) * 0.9) * 2 + 0.5));
      const shade =
        1 - (coat.stripes ?? 0.15) * stripe * (1 - belly) + (coat.speckle ?? 0.1) * (rng.next() - 0.5);
      const i = (y * size + x) * 4;
      for (let c = 0; c < 3; c++) {
        const v = (coat.back[c]! * (1 - belly) + coat.belly[c]! * belly) * shade;
        png.data[i + c] = Math.max(0, Math.min(255, Math.round(v)));
      }
      png.data[i + 3] = 255;
    }
  }
  return new Uint8Array(PNG.sync.write(png, { colorType: 2 }));
}

import type { DegradeColour } from './degrade-presets.js';
import { assertRgbImage, type RgbImage } from './image.js';

type Mat3 = [number, number, number, number, number, number, number, number, number];

function mul(a: Mat3, b: Mat3): Mat3 {
  const o = new Array<number>(9) as Mat3;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      o[3 * r + c] = a[3 * r]! * b[c]! + a[3 * r + 1]! * b[3 + c]! + a[3 * r + 2]! * b[6 + c]!;
  return o;
}

/**
 * A colour grade of an RGB image, as a video model drifts colours: hue turned about the grey axis
 * and saturation scaled (the Rec. 709 luma weights, as CSS's `hue-rotate` and `saturate`), then
 * `brightness` added (share of full scale) and `gamma` applied (out = in ^ gamma on 0..1).
 * Returns a new image.
 *
 * ```ts
 * const graded = gradeColour(frame, { saturation: 0.8, brightness: 0.04, gamma: 1.1, hue: 8 });
 * ```
 */
export function gradeColour(img: RgbImage, c: DegradeColour): RgbImage {
  assertRgbImage('gradeColour', img);
  const th = (c.hue * Math.PI) / 180;
  const a = Math.cos(th);
  const b = Math.sin(th);
  const hue: Mat3 = [
    0.213 + 0.787 * a - 0.213 * b,
    0.715 - 0.715 * a - 0.715 * b,
    0.072 - 0.072 * a + 0.928 * b,
    0.213 - 0.213 * a + 0.143 * b,
    0.715 + 0.285 * a + 0.14 * b,
    0.072 - 0.072 * a - 0.283 * b,
    0.213 - 0.213 * a - 0.787 * b,
    0.715 - 0.715 * a + 0.715 * b,
    0.072 + 0.928 * a + 0.072 * b,
  ];
  const s = c.saturation;
  const sat: Mat3 = [
    0.213 + 0.787 * s,
    0.715 - 0.715 * s,
    0.072 - 0.072 * s,
    0.213 - 0.213 * s,
    0.715 + 0.285 * s,
    0.072 - 0.072 * s,
    0.213 - 0.213 * s,
    0.715 - 0.715 * s,
    0.072 + 0.928 * s,
  ];
  const m = mul(sat, hue);
  // Brightness and gamma through a table over 0..1 in 1/4096 steps.
  const N = 4096;
  const lut = new Uint8Array(N + 1);
  for (let i = 0; i <= N; i++) {
    const v = Math.min(1, Math.max(0, i / N + c.brightness));
    lut[i] = Math.round(255 * v ** c.gamma);
  }
  const src = img.data;
  const out = new Uint8Array(src.length);
  const k = N / 255;
  for (let p = 0; p < src.length; p += 3) {
    const r = src[p]!;
    const g = src[p + 1]!;
    const bl = src[p + 2]!;
    for (let ch = 0; ch < 3; ch++) {
      const v = (m[3 * ch]! * r + m[3 * ch + 1]! * g + m[3 * ch + 2]! * bl) * k;
      out[p + ch] = lut[v <= 0 ? 0 : v >= N ? N : (v + 0.5) | 0]!; // rounds as Math.round for v > 0
    }
  }
  return { width: img.width, height: img.height, data: out };
}

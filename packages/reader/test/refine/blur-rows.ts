import type { RgbImage } from '@mocap/media';

/** `img` with each row blurred across by a Gaussian of `sigma` px (edges clamped): a lens, a codec. */
export function blurRows(img: RgbImage, sigma: number): RgbImage {
  const r = Math.ceil(3 * sigma);
  const k = Array.from({ length: 2 * r + 1 }, (_, j) => Math.exp(-((j - r) ** 2) / (2 * sigma * sigma)));
  const sum = k.reduce((a, b) => a + b);
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let j = -r; j <= r; j++)
          s += (k[j + r] as number) * (data[3 * (y * w + Math.min(w - 1, Math.max(0, x + j))) + c] as number);
        out[3 * (y * w + x) + c] = Math.round(s / sum);
      }
  return { width: w, height: h, data: out };
}

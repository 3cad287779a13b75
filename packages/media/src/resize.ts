import { z } from 'zod';
import { assertRgbImage, type RgbImage } from './image.js';

/** Options of {@link resize}. */
export const ResizeOptions = z
  .object({
    /**
     * `bilinear` (pixel centres aligned, as OpenCV's INTER_LINEAR), `area` (box filter: each output
     * pixel averages the source area it covers, as INTER_AREA; the right choice to shrink), or
     * `auto`: area when shrinking both axes, bilinear otherwise.
     * @default 'auto'
     */
    method: z.enum(['auto', 'bilinear', 'area']).default('auto'),
  })
  .strict();
/** Options of {@link resize}. */
export type ResizeOptions = z.input<typeof ResizeOptions>;

/** Per output index: `count[i]` taps starting at `start[i]` in `idx`/`w`. */
interface Taps {
  start: Int32Array;
  count: Int32Array;
  idx: Int32Array;
  w: Float32Array;
}

function bilinearTaps(src: number, dst: number): Taps {
  const scale = src / dst;
  const start = new Int32Array(dst);
  const count = new Int32Array(dst).fill(2);
  const idx = new Int32Array(dst * 2);
  const w = new Float32Array(dst * 2);
  for (let i = 0; i < dst; i++) {
    const s = Math.min(Math.max((i + 0.5) * scale - 0.5, 0), src - 1);
    const i0 = Math.floor(s);
    const f = s - i0;
    start[i] = 2 * i;
    idx[2 * i] = i0;
    idx[2 * i + 1] = Math.min(i0 + 1, src - 1);
    w[2 * i] = 1 - f;
    w[2 * i + 1] = f;
  }
  return { start, count, idx, w };
}

function areaTaps(src: number, dst: number): Taps {
  const scale = src / dst;
  const start = new Int32Array(dst);
  const count = new Int32Array(dst);
  const idx: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < dst; i++) {
    const a = i * scale;
    const b = Math.min((i + 1) * scale, src);
    start[i] = idx.length;
    for (let k = Math.floor(a); k < Math.ceil(b - 1e-9); k++) {
      const overlap = Math.min(b, k + 1) - Math.max(a, k);
      if (overlap <= 1e-9) continue;
      idx.push(k);
      w.push(overlap / (b - a));
    }
    count[i] = idx.length - (start[i] as number);
  }
  return { start, count, idx: Int32Array.from(idx), w: Float32Array.from(w) };
}

/**
 * Resizes an RGB image to `width` x `height` (separable filter, rounding to nearest).
 *
 * ```ts
 * const small = resize(frame, 640, 360); // area filter: shrinking
 * const big = resize(small, 1280, 720, { method: 'bilinear' });
 * ```
 */
export function resize(img: RgbImage, width: number, height: number, options: ResizeOptions = {}): RgbImage {
  assertRgbImage('resize', img);
  if (!Number.isInteger(width) || width <= 0 || !Number.isInteger(height) || height <= 0) {
    throw new TypeError(`resize: expected a positive integer target size, got ${width} x ${height}.`);
  }
  const { method } = ResizeOptions.parse(options);
  if (width === img.width && height === img.height) return { width, height, data: img.data.slice() };
  const area = method === 'area' || (method === 'auto' && width <= img.width && height <= img.height);
  const taps = area ? areaTaps : bilinearTaps;
  const tx = taps(img.width, width);
  const ty = taps(img.height, height);
  const src = img.data;
  const sw = img.width;
  // Horizontal pass: every source row to `width` columns, floats.
  const mid = new Float32Array(img.height * width * 3);
  for (let y = 0; y < img.height; y++) {
    const rowIn = y * sw * 3;
    const rowOut = y * width * 3;
    for (let x = 0; x < width; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const s = tx.start[x] as number;
      const e = s + (tx.count[x] as number);
      for (let k = s; k < e; k++) {
        const p = rowIn + (tx.idx[k] as number) * 3;
        const wk = tx.w[k] as number;
        r += (src[p] as number) * wk;
        g += (src[p + 1] as number) * wk;
        b += (src[p + 2] as number) * wk;
      }
      const o = rowOut + x * 3;
      mid[o] = r;
      mid[o + 1] = g;
      mid[o + 2] = b;
    }
  }
  // Vertical pass: accumulate whole rows, tap by tap (sequential memory, weights hoisted).
  const out = new Uint8Array(width * height * 3);
  const rowLen = width * 3;
  const acc = new Float32Array(rowLen);
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    const s = ty.start[y] as number;
    const e = s + (ty.count[y] as number);
    for (let k = s; k < e; k++) {
      const wk = ty.w[k] as number;
      const base = (ty.idx[k] as number) * rowLen;
      for (let i = 0; i < rowLen; i++) acc[i] = (acc[i] as number) + (mid[base + i] as number) * wk;
    }
    const o = y * rowLen;
    for (let i = 0; i < rowLen; i++) {
      const v = acc[i] as number;
      out[o + i] = v < 0 ? 0 : v > 255 ? 255 : (v + 0.5) | 0; // rounds as Math.round for v >= 0, without its call
    }
  }
  return { width, height, data: out };
}

import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import type { Calibration } from './estimate-calib.js';
import type { ViewTransform } from './view-transform.js';

/**
 * Samples one view's model input straight from a clip frame: each input pixel averages a k x k
 * grid of bilinear samples over the layout area it covers (k = ceil(side / inputSize)), mapped into
 * the clip through the calibration (layout u = sx * clip u + tx). Layout points outside the view
 * (the square's padding) or outside the clip get the wall colour. Writes N x N x 3 floats in [0, 1].
 *
 * ```ts
 * frameToInput(frame, calib, viewTransform(layout, 'side', 256, 64), layout, out, 0);
 * ```
 */
export function frameToInput(
  frame: RgbImage,
  calib: Pick<Calibration, 'sx' | 'sy' | 'tx' | 'ty'>,
  t: ViewTransform,
  layout: Layout,
  out: Float32Array,
  offset: number,
): void {
  const n = t.inputSize;
  const cell = t.side / n;
  const k = Math.max(1, Math.ceil(cell));
  const wall = layout.colours.wall.map((c) => c / 255);
  const { width: w, height: h, data } = frame;
  const acc = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      acc[0] = 0;
      acc[1] = 0;
      acc[2] = 0;
      for (let a = 0; a < k; a++) {
        // Square coordinates of the sample, then layout u, v.
        const sq = (i + (a + 0.5) / k) * cell;
        const v = sq - t.padTop;
        for (let b = 0; b < k; b++) {
          const sqx = (j + (b + 0.5) / k) * cell;
          const uView = sqx - t.padLeft;
          if (uView < 0 || uView >= t.width || v < 0 || v >= t.height) {
            acc[0] += wall[0]!;
            acc[1] += wall[1]!;
            acc[2] += wall[2]!;
            continue;
          }
          const x = (uView + t.x0 - calib.tx) / calib.sx - 0.5;
          const y = (v - calib.ty) / calib.sy - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          if (x0 < 0 || y0 < 0 || x0 + 1 >= w || y0 + 1 >= h) {
            acc[0] += wall[0]!;
            acc[1] += wall[1]!;
            acc[2] += wall[2]!;
            continue;
          }
          const fx = x - x0;
          const fy = y - y0;
          const p = (y0 * w + x0) * 3;
          const q = p + w * 3;
          for (let c = 0; c < 3; c++) {
            const top = data[p + c]! + (data[p + 3 + c]! - data[p + c]!) * fx;
            const bot = data[q + c]! + (data[q + 3 + c]! - data[q + c]!) * fx;
            acc[c]! += (top + (bot - top) * fy) / 255;
          }
        }
      }
      const o = offset + (i * n + j) * 3;
      const kk = k * k;
      out[o] = acc[0]! / kk;
      out[o + 1] = acc[1]! / kk;
      out[o + 2] = acc[2]! / kk;
    }
  }
}

import { seededRandom } from '@mocap/anim-loop';
import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';

/** Paint colours of the synthetic creature's four legs (labels 2..5). */
export const PAINT: [number, number, number][] = [
  [220, 40, 40],
  [40, 90, 230],
  [40, 190, 70],
  [230, 200, 40],
];

/**
 * A synthetic two-view studio frame with a known label per pixel: wall, floor and divider
 * (label 0), a shaded, noisy orange body with a white chest (label 1) and four shaded painted
 * legs (labels 2..5), placed at random (seeded) in both views.
 */
export function syntheticFrame(layout: Layout, seed: number): { image: RgbImage; labels: Uint8Array } {
  const key = `${seed}:${JSON.stringify(layout)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out = drawFrame(layout, seed);
  cache.set(key, out);
  return out;
}

const cache = new Map<string, { image: RgbImage; labels: Uint8Array }>();

function drawFrame(layout: Layout, seed: number): { image: RgbImage; labels: Uint8Array } {
  const rng = seededRandom(seed);
  const w = layout.WIDTH;
  const h = layout.HEIGHT;
  const data = new Uint8Array(w * h * 3);
  const labels = new Uint8Array(w * h);
  const put = (x: number, y: number, rgb: number[], label: number, shade: number) => {
    const i = y * w + x;
    labels[i] = label;
    for (let c = 0; c < 3; c++) {
      // noise of standard deviation 4: a scaled sum of three uniforms (cheaper than Box-Muller)
      const n = 8 * (rng.next() + rng.next() + rng.next() - 1.5);
      data[3 * i + c] = Math.max(0, Math.min(255, Math.round(rgb[c] * shade + n)));
    }
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const col =
        x >= layout.W_FRONT - layout.DIVIDER_PX && x < layout.W_FRONT
          ? layout.colours.divider
          : y < layout.GROUND_V
            ? layout.colours.wall
            : layout.colours.floor;
      put(x, y, col, 0, 1);
    }
  }
  const views = [
    [20, layout.W_FRONT - 20],
    [layout.W_FRONT + 20, w - 20],
  ];
  for (const [x0, x1] of views) {
    const cx = rng.uniform(x0 + 150, x1 - 150);
    const cy = layout.GROUND_V - rng.uniform(200, 260);
    const rx = Math.min(120, (x1 - x0) / 2 - 40);
    const ry = 70;
    PAINT.forEach((p, g) => {
      const lx = cx + (g - 1.5) * (rx / 2.2) + rng.uniform(-8, 8);
      for (let y = Math.round(cy); y < layout.GROUND_V; y++) {
        for (let x = Math.round(lx - 9); x < lx + 9; x++)
          put(x, y, p, 2 + g, 0.55 + 0.45 * ((x - lx + 9) / 18));
      }
    });
    for (let y = Math.round(cy - ry); y <= cy + ry; y++) {
      for (let x = Math.round(cx - rx); x <= cx + rx; x++) {
        const a = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
        if (a > 1) continue;
        const chest = y > cy + ry * 0.3 && Math.abs(x - cx) < rx * 0.3;
        put(x, y, chest ? [235, 230, 222] : [205, 112, 48], 1, 1 - 0.4 * a);
      }
    }
  }
  return { image: { width: w, height: h, data }, labels };
}

/** A global colour drift like generated video's: per-channel gain, gamma and noise (seeded). */
export function drift(image: RgbImage, gain: number[], gamma: number, noise: number, seed: number): RgbImage {
  const rng = seededRandom(seed);
  const data = new Uint8Array(image.data.length);
  for (let i = 0; i < data.length; i++) {
    const v = 255 * (image.data[i] / 255) ** gamma * gain[i % 3] + noise * rng.normal();
    data[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return { width: image.width, height: image.height, data };
}

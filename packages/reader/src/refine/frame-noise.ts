import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';

/**
 * A frame's pixel noise, in 0-255 levels: the root mean square of the differences between
 * horizontal neighbours in the wall band (the rows {@link backdropColours} reads the wall from,
 * the divider left out), divided by sqrt(2) and averaged over the channels. A render's flat wall
 * gives 0; grain or a codec's block noise on the wall gives about its standard deviation. A wall
 * with texture or a gradient reads a little higher, which only smooths the frame a little.
 */
export function frameNoise(image: RgbImage, layout: Layout): number {
  if (image.width !== layout.WIDTH || image.height !== layout.HEIGHT) {
    throw new RangeError(
      `frameNoise: expected a ${layout.WIDTH} x ${layout.HEIGHT} frame (layout px), got ${image.width} x ${image.height}.`,
    );
  }
  const w = image.width;
  const d = image.data;
  const y1 = Math.max(2, Math.floor(layout.GROUND_V * 0.08));
  const div0 = layout.W_FRONT - layout.DIVIDER_PX - 2;
  const div1 = layout.W_FRONT + 1;
  let sum = 0;
  let n = 0;
  for (let y = 1; y < y1; y++) {
    for (let x = 0; x < w - 1; x++) {
      if (x >= div0 && x < div1) continue;
      const i = 3 * (y * w + x);
      const r = d[i + 3] - d[i];
      const g = d[i + 4] - d[i + 1];
      const b = d[i + 5] - d[i + 2];
      sum += r * r + g * g + b * b;
      n += 3;
    }
  }
  return n > 0 ? Math.sqrt(sum / n / 2) : 0;
}

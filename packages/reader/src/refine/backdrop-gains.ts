import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';

/**
 * Median colour of the studio backdrop in a frame: the wall (a band of rows at the top) and the
 * floor (a band at the bottom), both views, the divider left out. Returns six values: wall RGB,
 * floor RGB. The creature is assumed to leave those bands mostly free (the median tolerates it
 * covering less than half of them).
 */
export function backdropColours(image: RgbImage, layout: Layout): Float64Array {
  if (image.width !== layout.WIDTH || image.height !== layout.HEIGHT) {
    throw new RangeError(
      `backdropColours: expected a ${layout.WIDTH} x ${layout.HEIGHT} frame (layout px), got ${image.width} x ${image.height}.`,
    );
  }
  const out = new Float64Array(6);
  const wallRows: [number, number] = [1, Math.max(2, Math.floor(layout.GROUND_V * 0.08))];
  const floorTop = Math.min(
    layout.HEIGHT - 2,
    Math.ceil(layout.GROUND_V + (layout.HEIGHT - layout.GROUND_V) * 0.5),
  );
  const floorRows: [number, number] = [floorTop, layout.HEIGHT - 1];
  [wallRows, floorRows].forEach(([r0, r1], k) => {
    const hist = new Uint32Array(3 * 256);
    let n = 0;
    for (let y = r0; y < r1; y++) {
      for (let x = 0; x < image.width; x++) {
        if (x >= layout.W_FRONT - layout.DIVIDER_PX - 1 && x < layout.W_FRONT + 1) continue;
        const i = 3 * (y * image.width + x);
        hist[image.data[i]]++;
        hist[256 + image.data[i + 1]]++;
        hist[512 + image.data[i + 2]]++;
        n++;
      }
    }
    for (let c = 0; c < 3; c++) out[3 * k + c] = histMedian(hist, 256 * c, n);
  });
  return out;
}

function histMedian(hist: Uint32Array, o: number, n: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[o + v];
    if (acc * 2 >= n) return v;
  }
  return 255;
}

/**
 * Per-channel gains that map a frame's colours onto the reference's: least squares over the
 * wall and floor medians (`observed`, `expected`: six values each, from
 * {@link backdropColours}; `expected` from ref.png, or the layout's studio colours). Generated
 * video drifts in white balance and exposure; dividing it out makes the colour model hold.
 */
export function backdropGains(
  out: Float64Array,
  observed: ArrayLike<number>,
  expected: ArrayLike<number>,
): Float64Array {
  for (let c = 0; c < 3; c++) {
    const ow = observed[c];
    const of = observed[3 + c];
    const den = ow * ow + of * of;
    out[c] = den > 0 ? (ow * expected[c] + of * expected[3 + c]) / den : 1;
  }
  return out;
}

/** The layout's studio colours as {@link backdropColours} reports them: wall RGB, floor RGB. */
export function studioColours(layout: Layout): Float64Array {
  return Float64Array.from([...layout.colours.wall, ...layout.colours.floor]);
}

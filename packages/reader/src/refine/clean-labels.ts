import type { PixelRect } from './distance-transform.js';
import { LABEL_BACKDROP, LABEL_BODY, LABEL_GROUP0 } from './paint-labels.js';
import { regionSpans } from './region-spans.js';

/**
 * Cleans a segmentation's paint labels in place (one label per pixel, `width` wide): each paint
 * group's mask is opened (a pixel survives the erosion when its four neighbours share its label;
 * survivors grow back by one pixel inside the original mask), which removes the 1-2 px fringes a
 * colour model leaves along anti-aliased edges, then its 4-connected pieces smaller than `minArea`
 * px are dropped. Dropped paint pixels become body where a neighbour is the creature, else
 * backdrop. Stray paint pulls the paint group's limb toward it, so this runs before the fit.
 *
 * With `regions` only the pixels inside them are walked: the same result as the whole frame when
 * every label outside them is backdrop (a {@link segmentImage} made inside the same regions).
 *
 * ```ts
 * cleanLabels(segmentImage(labels, model, frame, layout), layout.WIDTH, layout.HEIGHT);
 * ```
 */
export function cleanLabels(
  labels: Uint8Array,
  width: number,
  height: number,
  minArea = 40,
  regions: readonly PixelRect[] | null = null,
): Uint8Array {
  const n = width * height;
  const spans = regionSpans(regions, width, height);
  const { keep, seen, stack, piece } = scratchFor(n);
  // Erosion: paint pixels whose 4 neighbours carry the same label.
  for (let k = 0; k < spans.length; k += 3) {
    const y = spans[k];
    if (y < 1 || y >= height - 1) continue;
    const end = y * width + Math.min(spans[k + 2], width - 1);
    for (let i = y * width + Math.max(spans[k + 1], 1); i < end; i++) {
      const l = labels[i];
      if (l < LABEL_GROUP0) continue;
      if (labels[i - 1] === l && labels[i + 1] === l && labels[i - width] === l && labels[i + width] === l)
        keep[i] = 1;
    }
  }
  // Dilation back inside the original mask (2: kept after the opening).
  for (let k = 0; k < spans.length; k += 3) {
    const y = spans[k];
    if (y < 1 || y >= height - 1) continue;
    const end = y * width + Math.min(spans[k + 2], width - 1);
    for (let i = y * width + Math.max(spans[k + 1], 1); i < end; i++) {
      if (labels[i] < LABEL_GROUP0 || keep[i] === 1) continue;
      const l = labels[i];
      if (
        (keep[i - 1] === 1 && labels[i - 1] === l) ||
        (keep[i + 1] === 1 && labels[i + 1] === l) ||
        (keep[i - width] === 1 && labels[i - width] === l) ||
        (keep[i + width] === 1 && labels[i + width] === l)
      )
        keep[i] = 2;
    }
  }
  // Connected pieces of kept paint (4-connected, one label); small ones are dropped. `piece`
  // lists a piece's pixels as the fill finds them, `stack` the ones still to expand.
  for (let k = 0; k < spans.length; k += 3) {
    const row = spans[k] * width;
    for (let s = row + spans[k + 1]; s < row + spans[k + 2]; s++) {
      if (!keep[s] || seen[s]) continue;
      const l = labels[s];
      let top = 0;
      let size = 0;
      stack[top++] = s;
      seen[s] = 1;
      while (top > 0) {
        const i = stack[--top];
        piece[size++] = i;
        const x = i % width;
        let j = i - 1;
        if (x > 0 && !seen[j] && keep[j] && labels[j] === l) {
          seen[j] = 1;
          stack[top++] = j;
        }
        j = i + 1;
        if (x < width - 1 && !seen[j] && keep[j] && labels[j] === l) {
          seen[j] = 1;
          stack[top++] = j;
        }
        j = i - width;
        if (j >= 0 && !seen[j] && keep[j] && labels[j] === l) {
          seen[j] = 1;
          stack[top++] = j;
        }
        j = i + width;
        if (j < n && !seen[j] && keep[j] && labels[j] === l) {
          seen[j] = 1;
          stack[top++] = j;
        }
      }
      if (size < minArea) for (let q = 0; q < size; q++) keep[piece[q]] = 0;
    }
  }
  for (let k = 0; k < spans.length; k += 3) {
    const row = spans[k] * width;
    for (let i = row + spans[k + 1]; i < row + spans[k + 2]; i++) {
      if (labels[i] < LABEL_GROUP0 || keep[i]) continue;
      const x = i % width;
      const near =
        (x > 0 && labels[i - 1] !== LABEL_BACKDROP) ||
        (x < width - 1 && labels[i + 1] !== LABEL_BACKDROP) ||
        (i >= width && labels[i - width] !== LABEL_BACKDROP) ||
        (i + width < n && labels[i + width] !== LABEL_BACKDROP);
      labels[i] = near ? LABEL_BODY : LABEL_BACKDROP;
    }
  }
  // Only pixels inside the spans were marked: clear them for the next call.
  for (let k = 0; k < spans.length; k += 3) {
    const row = spans[k] * width;
    keep.fill(0, row + spans[k + 1], row + spans[k + 2]);
    seen.fill(0, row + spans[k + 1], row + spans[k + 2]);
  }
  return labels;
}

/** Zeroed work buffers for an image of `n` px, kept between calls (cleared by each call after use). */
function scratchFor(n: number): Scratch {
  if (!scratch || scratch.keep.length !== n)
    scratch = {
      keep: new Uint8Array(n),
      seen: new Uint8Array(n),
      stack: new Int32Array(n),
      piece: new Int32Array(n),
    };
  return scratch;
}

interface Scratch {
  keep: Uint8Array;
  seen: Uint8Array;
  stack: Int32Array;
  piece: Int32Array;
}

let scratch: Scratch | null = null;

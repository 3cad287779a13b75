import { LABEL_BACKDROP, LABEL_BODY, LABEL_GROUP0 } from './paint-labels.js';

/**
 * Cleans a segmentation's paint labels in place (one label per pixel, `width` wide): each paint
 * group's mask is opened (a pixel survives the erosion when its four neighbours share its label;
 * survivors grow back by one pixel inside the original mask), which removes the 1-2 px fringes a
 * colour model leaves along anti-aliased edges, then its 4-connected pieces smaller than `minArea`
 * px are dropped. Dropped paint pixels become body where a neighbour is the creature, else
 * backdrop. Stray paint pulls the paint group's limb toward it, so this runs before the fit.
 *
 * ```ts
 * cleanLabels(segmentImage(labels, model, frame, layout), layout.WIDTH, layout.HEIGHT);
 * ```
 */
export function cleanLabels(labels: Uint8Array, width: number, height: number, minArea = 40): Uint8Array {
  const n = width * height;
  if (scratch.keep.length < n)
    scratch = { keep: new Uint8Array(n), seen: new Uint8Array(n), stack: new Int32Array(n) };
  // The rows that hold paint: nothing outside them (and the row either side) is read or changed.
  let top0 = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let i = y * width, e = i + width; i < e; i++) {
      if (labels[i] >= LABEL_GROUP0) {
        if (y < top0) top0 = y;
        bottom = y;
        break;
      }
    }
  }
  if (bottom < 0) return labels;
  const r0 = Math.max(0, top0 - 1) * width;
  const r1 = Math.min(height, bottom + 2) * width;
  const keep = scratch.keep.fill(0, r0, r1);
  const yFrom = Math.max(1, top0);
  const yTo = Math.min(height - 1, bottom + 1);
  // Erosion: paint pixels whose 4 neighbours carry the same label.
  for (let y = yFrom; y < yTo; y++) {
    for (let i = y * width + 1; i < y * width + width - 1; i++) {
      const l = labels[i];
      if (l < LABEL_GROUP0) continue;
      if (labels[i - 1] === l && labels[i + 1] === l && labels[i - width] === l && labels[i + width] === l)
        keep[i] = 1;
    }
  }
  // Dilation back inside the original mask (2: kept after the opening).
  for (let y = yFrom; y < yTo; y++) {
    for (let i = y * width + 1; i < y * width + width - 1; i++) {
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
  // Connected pieces of kept paint; small ones are dropped.
  // (the stack's popped part holds the piece: its first `size` entries once the fill ends)
  const stack = scratch.stack;
  const seen = scratch.seen.fill(0, r0, r1);
  for (let s = r0; s < r1; s++) {
    if (!keep[s] || seen[s]) continue;
    const l = labels[s];
    let top = 0;
    let size = 0;
    stack[top++] = s;
    seen[s] = 1;
    while (size < top) {
      const i = stack[size++];
      const x = i % width;
      if (x > 0) top = visit(i - 1, l, labels, keep, seen, stack, top);
      if (x < width - 1) top = visit(i + 1, l, labels, keep, seen, stack, top);
      if (i >= width) top = visit(i - width, l, labels, keep, seen, stack, top);
      if (i + width < n) top = visit(i + width, l, labels, keep, seen, stack, top);
    }
    if (size < minArea) for (let k = 0; k < size; k++) keep[stack[k]] = 0;
  }
  for (let i = top0 * width, e = (bottom + 1) * width; i < e; i++) {
    if (labels[i] < LABEL_GROUP0 || keep[i]) continue;
    const x = i % width;
    const near =
      (x > 0 && labels[i - 1] !== LABEL_BACKDROP) ||
      (x < width - 1 && labels[i + 1] !== LABEL_BACKDROP) ||
      (i >= width && labels[i - width] !== LABEL_BACKDROP) ||
      (i + width < n && labels[i + width] !== LABEL_BACKDROP);
    labels[i] = near ? LABEL_BODY : LABEL_BACKDROP;
  }
  return labels;
}

/** Full-frame buffers reused from call to call (each cleared where it is read). */
let scratch = { keep: new Uint8Array(0), seen: new Uint8Array(0), stack: new Int32Array(0) };

/** Queues pixel j of the fill when it is kept paint of label `l` not seen yet; returns the new queue end. */
function visit(
  j: number,
  l: number,
  labels: Uint8Array,
  keep: Uint8Array,
  seen: Uint8Array,
  stack: Int32Array,
  top: number,
): number {
  if (seen[j] || !keep[j] || labels[j] !== l) return top;
  seen[j] = 1;
  stack[top] = j;
  return top + 1;
}

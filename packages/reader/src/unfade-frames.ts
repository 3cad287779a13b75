import type { Layout } from '@mocap/layout';
import type { RgbImage } from '@mocap/media';
import type { ClipCalib } from './calib-at.js';
import { toLayout } from './frame-peaks.js';
import { backdropSilhouette, silhouetteAreas } from './refine/place-rest-pose.js';

/** What {@link unfadeFrames} found, filled in before it yields the clip's first frame. */
export interface ClipFade {
  /**
   * Per frame of the fade-in (none when the clip does not fade in): how much of the creature's
   * contrast the frame shows (1: all of it), 0 for a frame too faint to read
   * ({@link FADE_MIN_VISIBILITY}). Frames past the array show the creature fully.
   */
  visibility: number[];
}

/** Frames held back to measure a fade-in: it must end within about half of them. */
export const FADE_WINDOW = 32;

/** A fade frame showing less than this share of the creature's contrast is not read (its noise, magnified to restore it, would be). */
export const FADE_MIN_VISIBILITY = 0.25;

/** A frame showing at least this share of the creature's contrast ends the fade (it is left as it is). */
const FADE_FULL = 0.9;

/** The first frame shows a fade's source when its silhouette covers under this share of the window's last frame's. */
const EMPTY_SHARE = 0.2;

/** Frames are held back to look for a fade only when the first frame's silhouette covers under this share of the layout (a creature covers several %). */
const EMPTY_FRAME_SHARE = 0.01;

/** Frame `t`'s visibility from a {@link ClipFade} (1 past the fade). */
export function visibilityAt(fade: ClipFade | null | undefined, t: number): number {
  return fade?.visibility[t] ?? 1;
}

/**
 * Undoes a fade-in at a clip's start (a video model's, or an editor's, from the empty studio or
 * a flat colour): when the first frame shows no creature against the studio, it is taken as the
 * fade's source K, each frame of the fade as K + v (C - K) for the clear frame C, and v as the
 * frame's contrast against K over that of the first 4 clear frames after it (clear: within 0.9 of
 * the median of the upper half of the first {@link FADE_WINDOW}); frames with v from {@link FADE_MIN_VISIBILITY} on are
 * restored to K + (frame - K) / v, fainter ones are passed on as they are with visibility 0 (the
 * readers should not trust them). A clip whose first frame shows the creature passes unchanged,
 * nothing held back.
 * Works in clip px; `calibOf` maps frames to the layout only to look for the creature.
 *
 * ```ts
 * const fade: ClipFade = { visibility: [] };
 * for await (const f of unfadeFrames(decodeVideo(clip), layout, (t) => calibAt(track, t), fade)) {}
 * ```
 */
export async function* unfadeFrames(
  frames: AsyncIterable<RgbImage>,
  layout: Layout,
  calibOf: (t: number) => ClipCalib,
  fade: ClipFade,
): AsyncGenerator<RgbImage> {
  const it = frames[Symbol.asyncIterator]();
  // read by hand, so closing these frames must close the source (a decoder's process) by hand too
  try {
    yield* unfaded(it, layout, calibOf, fade);
  } finally {
    await it.return?.();
  }
}

async function* unfaded(
  it: AsyncIterator<RgbImage>,
  layout: Layout,
  calibOf: (t: number) => ClipCalib,
  fade: ClipFade,
): AsyncGenerator<RgbImage> {
  const first = await it.next();
  if (first.done) return;
  const held: RgbImage[] = [first.value];
  // a first frame that shows a creature at all is no fade's source: nothing is held back
  if (creatureArea(first.value, 0, layout, calibOf) < EMPTY_FRAME_SHARE * layout.WIDTH * layout.HEIGHT) {
    while (held.length < FADE_WINDOW) {
      const r = await it.next();
      if (r.done) break;
      held.push(r.value);
    }
    fade.visibility = measureFade(held, layout, calibOf);
  }
  for (const [t, frame] of held.entries()) {
    const v = visibilityAt(fade, t);
    yield v > 0 && v < 1 ? restore(frame, held[0]!, v) : frame;
  }
  held.length = 0;
  for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
}

/** The creature's silhouette area in frame `t` (both views, layout px) against the studio's colours. */
function creatureArea(frame: RgbImage, t: number, layout: Layout, calibOf: (t: number) => ClipCalib): number {
  const [f, s] = silhouetteAreas(backdropSilhouette(toLayout(frame, calibOf(t), layout), layout), layout);
  return f + s;
}

/** The visibility of each frame of a fade-in among the first frames of a clip ([] for none). */
function measureFade(held: RgbImage[], layout: Layout, calibOf: (t: number) => ClipCalib): number[] {
  const n = held.length;
  if (n < 3) return [];
  const area = (t: number) => {
    const [f, s] = silhouetteAreas(
      backdropSilhouette(toLayout(held[t]!, calibOf(t), layout), layout),
      layout,
    );
    return f + s;
  };
  const last = area(n - 1);
  if (last === 0 || area(0) >= EMPTY_SHARE * last) return [];
  const k = held[0]!;
  const energy = held.map((f, t) => (t === 0 ? 0 : contrast(f, k)));
  const upper = energy
    .slice(1)
    .sort((a, b) => a - b)
    .slice(Math.floor((n - 1) / 2));
  const rough = upper[Math.floor(upper.length / 2)]!;
  if (!(rough > 0)) return [];
  // the reference: the first clear frames, whose pose is nearest the fade's
  let s = 1;
  while (s < n && energy[s]! < FADE_FULL * rough) s++;
  const near = energy.slice(s, Math.min(n, s + 4)).sort((a, b) => a - b);
  const full = near.length > 0 ? near[near.length >> 1]! : rough;
  const out = [0];
  for (let t = 1; t < n; t++) {
    const v = energy[t]! / full;
    if (v >= FADE_FULL) break;
    out.push(v >= FADE_MIN_VISIBILITY ? v : 0);
  }
  return out;
}

/**
 * How far a frame is from the fade's source `k`: the sum over every other pixel (both axes) of the
 * colour distance above its median (the noise both frames carry), in grey levels.
 */
function contrast(f: RgbImage, k: RgbImage): number {
  const hist = new Uint32Array(766);
  const { width: w, height: h } = f;
  for (let y = 0; y < h; y += 2) {
    for (let x = 0; x < w; x += 2) {
      const i = 3 * (y * w + x);
      const d =
        Math.abs(f.data[i]! - k.data[i]!) +
        Math.abs(f.data[i + 1]! - k.data[i + 1]!) +
        Math.abs(f.data[i + 2]! - k.data[i + 2]!);
      hist[d]!++;
    }
  }
  let count = 0;
  for (const c of hist) count += c;
  let acc = 0;
  let median = 0;
  while (median < 765 && (acc + hist[median]!) * 2 < count) acc += hist[median++]!;
  let sum = 0;
  for (let d = median + 1; d < 766; d++) sum += (d - median) * hist[d]!;
  return sum;
}

/** K + (frame - K) / v, per byte, clamped to 0..255. */
function restore(frame: RgbImage, k: RgbImage, v: number): RgbImage {
  const data = new Uint8Array(frame.data.length);
  const g = 1 / v;
  for (let i = 0; i < data.length; i++) {
    const x = k.data[i]! + (frame.data[i]! - k.data[i]!) * g;
    data[i] = x <= 0 ? 0 : x >= 255 ? 255 : (x + 0.5) | 0; // rounds as Math.round for x > 0, without its call
  }
  return { width: frame.width, height: frame.height, data };
}

import type { Detections } from '@mocap/layout';
import { z } from 'zod';
import { decodeVideo } from './decode-video.js';
import { EncodeOptions, encodeVideo } from './encode-video.js';
import { createImage, type RgbImage } from './image.js';
import { drawKeypoints, drawSkeleton, jointPalette } from './overlays.js';
import { paste } from './paste.js';
import { resize } from './resize.js';

type Frames = Iterable<RgbImage> | AsyncIterable<RgbImage>;

/**
 * Options of {@link writeShowcase}: {@link EncodeOptions} for the output video (`fps`, `crf`,
 * `preset`; `signal` and `timeout` also bound decoding the sources given as video paths) and
 * what to draw.
 */
export const ShowcaseOptions = EncodeOptions.extend({
  /** Detections drawn on the clip (layout px, mapped to clip px through their `calib`, or frame by frame through `calibFrames`). */
  detections: z.custom<Detections>((v) => typeof v === 'object' && v !== null && 'frontUv' in v).optional(),
  /** Skeleton bones as joint-name pairs of `detections.names`. @default [] */
  bones: z.array(z.tuple([z.string(), z.string()])).default([]),
  /** Output height; both panels are scaled to it, keeping their aspect. @default 720 */
  height: z.number().int().positive().multipleOf(2).default(720),
  /** Joint disc radius in clip px. @default 5 */
  radius: z.number().positive().default(5),
});
/** Options of {@link writeShowcase}. */
export type ShowcaseOptions = z.input<typeof ShowcaseOptions>;

function source(frames: string | Frames, o: z.output<typeof ShowcaseOptions>): Frames {
  if (typeof frames !== 'string') return frames;
  return decodeVideo(frames, { timeout: o.timeout, ...(o.signal ? { signal: o.signal } : {}) });
}

function iterator(frames: Frames): AsyncIterator<RgbImage> | Iterator<RgbImage> {
  const a = (frames as AsyncIterable<RgbImage>)[Symbol.asyncIterator];
  return a ? a.call(frames) : (frames as Iterable<RgbImage>)[Symbol.iterator]();
}

/** Even width of `img` scaled to `height`. */
function panelWidth(img: RgbImage, height: number): number {
  return Math.max(2, 2 * Math.round((img.width * height) / img.height / 2));
}

function boneIndices(names: string[], bones: [string, string][]): [number, number][] {
  return bones.map(([a, b], k) => {
    const ia = names.indexOf(a);
    const ib = names.indexOf(b);
    if (ia < 0 || ib < 0) {
      throw new TypeError(
        `writeShowcase: bones[${k}]: "${ia < 0 ? a : b}" is not a joint of the detections.`,
      );
    }
    return [ia, ib];
  });
}

/** Draws frame `t` of `det` onto the clip frame `img` (clip px), both views. */
function drawDetections(
  img: RgbImage,
  det: Detections,
  t: number,
  bones: [number, number][],
  radius: number,
): void {
  const j = det.names.length;
  // Frame t's calibration when the framing drifts (calib_frames), else the clip's one.
  const c = det.calibFrames ? det.calibFrames.subarray(4 * t, 4 * t + 4) : det.calib;
  const [sx, sy, tx, ty] = c as unknown as [number, number, number, number];
  // calib maps clip px to layout px; drawing needs the inverse.
  const transform: [number, number, number, number] = [1 / sx, 1 / sy, -tx / sx, -ty / sy];
  const colours = jointPalette(j);
  for (const [uv, conf] of [
    [det.frontUv, det.frontConf],
    [det.sideUv, det.sideConf],
  ] as const) {
    const p = uv.subarray(t * j * 2, (t + 1) * j * 2);
    const c = conf.subarray(t * j, (t + 1) * j);
    drawSkeleton(img, p, bones, { conf: c, transform, width: Math.max(1, radius / 2) });
    drawKeypoints(img, p, { conf: c, transform, colours, radius });
  }
}

/**
 * Writes the side-by-side showcase video: each clip frame with its detections drawn (joints and
 * skeleton, both views) on the left, the rig's render of the same frame on the right, both
 * scaled to `height`. Either source is a video path or RGB frames; the video ends with the
 * shorter one. Written atomically through {@link encodeVideo}; resolves to the frame count.
 *
 * ```ts
 * await writeShowcase('runs/wolf/showcase.mp4', 'clip.mp4', 'runs/wolf/render.mp4', {
 *   fps: 24, detections: await readDetections('runs/wolf/det.npz'), bones: [['head', 'neck']],
 * });
 * ```
 */
export async function writeShowcase(
  out: string,
  clipFrames: string | Frames,
  renderFrames: string | Frames,
  options: ShowcaseOptions,
): Promise<number> {
  const o = ShowcaseOptions.parse(options);
  const det = o.detections;
  const bones = det ? boneIndices(det.names, o.bones) : [];
  const clip = iterator(source(clipFrames, o));
  const render = iterator(source(renderFrames, o));
  async function* frames(): AsyncGenerator<RgbImage> {
    try {
      for (let t = 0; ; t++) {
        const [a, b] = await Promise.all([clip.next(), render.next()]);
        if (a.done || b.done) return;
        const left = a.value;
        if (det && t < det.frames) {
          const copy = { width: left.width, height: left.height, data: left.data.slice() };
          drawDetections(copy, det, t, bones, o.radius);
          a.value = copy;
        }
        const lw = panelWidth(a.value, o.height);
        const rw = panelWidth(b.value, o.height);
        const frame = createImage(lw + rw, o.height);
        paste(frame, resize(a.value, lw, o.height), 0, 0);
        paste(frame, resize(b.value, rw, o.height), lw, 0);
        yield frame;
      }
    } finally {
      await clip.return?.();
      await render.return?.();
    }
  }
  return encodeVideo(out, frames(), {
    fps: o.fps,
    crf: o.crf,
    preset: o.preset,
    timeout: o.timeout,
    ...(o.signal ? { signal: o.signal } : {}),
  });
}

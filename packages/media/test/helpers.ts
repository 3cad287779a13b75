import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createImage, encodeVideo, fillRect, type RgbImage } from '@mocap/media';
import type { EncodeOptions } from '@mocap/media/internal';

/** Synthetic clip: wall grey, a red square moving right 4 px a frame, a fixed blue square. */
export const CLIP = { width: 160, height: 96, frames: 24, fps: 24 } as const;
export const RED_SIZE = 16;

/** Top-left corner of the red square in frame `t`. */
export function redAt(t: number): [number, number] {
  return [8 + 4 * t, 16];
}

/** Frame `t` of the synthetic clip. */
export function syntheticFrame(
  t: number,
  width: number = CLIP.width,
  height: number = CLIP.height,
): RgbImage {
  const img = createImage(width, height, [128, 130, 134]);
  const [x, y] = redAt(t);
  fillRect(img, x, y, RED_SIZE, RED_SIZE, [230, 20, 20]);
  fillRect(img, 112, 56, 32, 32, [20, 40, 220]);
  return img;
}

export function* syntheticFrames(n: number = CLIP.frames): Generator<RgbImage> {
  for (let t = 0; t < n; t++) yield syntheticFrame(t);
}

/** Centre of the pixels that read as red (r > 160, g and b < 100), or undefined. */
export function redCentroid(img: RgbImage): [number, number] | undefined {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 3;
      if (
        (img.data[i] as number) > 160 &&
        (img.data[i + 1] as number) < 100 &&
        (img.data[i + 2] as number) < 100
      ) {
        sx += x + 0.5;
        sy += y + 0.5;
        n++;
      }
    }
  }
  return n > 0 ? [sx / n, sy / n] : undefined;
}

/** A fresh temporary folder; call the returned function to remove it. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mocap-media-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A temporary folder holding the synthetic clip encoded as `clip`; call `cleanup` to remove it. */
export interface ClipFolder {
  dir: string;
  clip: string;
  cleanup: () => Promise<void>;
}

/** Encodes the synthetic clip at `CLIP.fps` to clip.mp4 in a fresh temporary folder (removed if that fails). */
export async function syntheticClipFolder(options: Omit<EncodeOptions, 'fps'>): Promise<ClipFolder> {
  const { dir, cleanup } = await tempDir();
  const clip = path.join(dir, 'clip.mp4');
  try {
    await encodeVideo(clip, syntheticFrames(), { fps: CLIP.fps, ...options });
  } catch (err) {
    await cleanup();
    throw err;
  }
  return { dir, clip, cleanup };
}

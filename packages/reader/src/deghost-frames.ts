import type { RgbImage } from '@mocap/media';

/**
 * Undoes a clip's ghosting (frame t = (1 - blend) x its own picture + blend x frame t-1's, as
 * {@link ghostBlend} measures it) on a stream of consecutive frames from the clip's first: each
 * picture is (frame t - blend x the picture before) / (1 - blend), clamped to 0-255. The error of
 * one frame fades by blend / (1 - blend) a frame, so blends of 0.5 and over are refused. A blend of
 * 0 passes the frames through untouched.
 *
 * ```ts
 * for await (const f of deghostFrames(decodeVideo(clip), 0.3)) {}
 * ```
 */
export async function* deghostFrames(
  frames: AsyncIterable<RgbImage>,
  blend: number,
): AsyncGenerator<RgbImage> {
  if (!(blend >= 0 && blend < 0.5)) {
    throw new RangeError(`deghostFrames: Expected a blend in [0, 0.5), got ${blend}.`);
  }
  if (blend === 0) {
    yield* frames;
    return;
  }
  const k = 1 / (1 - blend);
  let prev: Float32Array | null = null;
  for await (const f of frames) {
    const n = f.data.length;
    if (!prev || prev.length !== n) {
      prev = Float32Array.from(f.data);
      yield f;
      continue;
    }
    const data = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = Math.min(255, Math.max(0, (f.data[i]! - blend * prev[i]!) * k));
      prev[i] = v;
      data[i] = (v + 0.5) | 0; // v >= 0: rounds as Math.round, without its call
    }
    yield { width: f.width, height: f.height, data };
  }
}

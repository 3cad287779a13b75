import { Layout, type LayoutInput } from '@mocap/layout';
import { z } from 'zod';
import { studioBackdrop } from './compose-frame.js';
import { decodeVideo } from './decode-video.js';
import { DEGRADE_PRESETS, type DegradeParams, DegradePreset } from './degrade-presets.js';
import { drawDegrade } from './draw-degrade.js';
import { encodeVideo } from './encode-video.js';
import { gradeColour } from './grade-colour.js';
import type { RgbImage } from './image.js';
import { probeVideo } from './probe-video.js';
import { resize } from './resize.js';
import { warpScaleShift } from './warp-scale-shift.js';

/** Options of {@link degradeClip}. */
export const DegradeOptions = z
  .object({
    /** The artefacts to apply, all at once (`all`: every preset). */
    presets: z.array(DegradePreset).min(1),
    /** Draws every parameter ({@link drawDegrade}): the same seed gives the same clip. */
    seed: z.number().int(),
    /** The clip's layout: where the views part (`lag`) and the empty studio (`fade`). @default DEFAULT_LAYOUT */
    layout: z.custom<LayoutInput>((v) => typeof v === 'object' && v !== null).optional(),
    /** x264 preset of the output. @default 'veryfast' */
    preset: z.enum(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium']).default('veryfast'),
    signal: z.instanceof(AbortSignal).optional(),
    /** Limit for decode and encode each, ms. @default 3600000 */
    timeout: z.number().int().positive().default(3_600_000),
  })
  .strict();
/** Options of {@link degradeClip}. */
export type DegradeOptions = z.input<typeof DegradeOptions>;

/** What {@link degradeClip} wrote and drew. */
export interface DegradeResult {
  out: string;
  /** The presets applied (`all` spelled out). */
  presets: Exclude<DegradePreset, 'all'>[];
  /** The parameters drawn, per preset. */
  params: DegradeParams;
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** Output frame k shows source frame `frameMap[k]` (the truth of frame k is the source's of that frame). */
  frameMap: number[];
  /**
   * The true calibration of each output frame, T x 4 `[sx, sy, tx, ty]`: source px (the layout,
   * for a rendered clip) = sx * output px + tx, as det.npz's `calib` holds it.
   */
  calib: Float64Array;
}

/** crf of the output when the `codec` preset is not applied: near-lossless, so only the other artefacts show. */
const CLEAN_CRF = 14;

/**
 * Applies video-model artefacts to a rendered clip, seeded ({@link drawDegrade} draws the
 * parameters from issue 14's ranges): in JS on the decoded frames, one view lagging (`lag`), a fade
 * in from the empty studio (`fade`), each frame blended with the one before (`ghost`; these three
 * in the delivered frames, after `fps`), a scaled
 * and shifted framing (`reframe`) that drifts (`drift`; the studio goes on past the layout's edges,
 * as a model would paint it), a colour grade drifting through the clip (`colour`), the frame rate
 * resampled (`fps`, reporting the frame mapping so the truth can follow); then in ffmpeg a Gaussian
 * blur, noise and a low crf (`codec`) and another frame size (`resize`). Returns what it drew, the
 * frame mapping and each output frame's true calibration. Written atomically.
 *
 * ```ts
 * const r = await degradeClip('exam/clip.mp4', 'exam/clip-codec.mp4', { presets: ['codec'], seed: 1 });
 * r.params.codec; // { crf: 31, blurSigma: 0.93, noise: 5.1 }
 * ```
 */
export async function degradeClip(
  clip: string,
  out: string,
  options: DegradeOptions,
): Promise<DegradeResult> {
  const o = DegradeOptions.parse(options);
  const layout = Layout.parse(o.layout ?? {});
  const info = await probeVideo(clip, o.signal ? { signal: o.signal } : {});
  const { width: W, height: H, fps: fin } = info;
  const T = info.frames;
  const p = drawDegrade(o.presets, o.seed, { width: W, height: H, fps: fin });
  const presets = (o.presets.includes('all') ? [...DEGRADE_PRESETS] : [...new Set(o.presets)]) as Exclude<
    DegradePreset,
    'all'
  >[];
  const fout = p.fps?.fps ?? fin;
  const outW = p.resize?.width ?? W;
  const outH = p.resize?.height ?? H;
  // Output frame k shows the source frame nearest its time.
  const frameMap: number[] = [];
  for (let k = 0; ; k++) {
    const s = Math.round((k * fin) / fout);
    if (s > T - 1) break;
    frameMap.push(s);
  }
  const along = (t: number) => (T > 1 ? t / (T - 1) : 0);
  /** The framing of source frame t: output-before-resize px = a * source px + b, per axis. */
  const framing = (t: number) => {
    const s = (p.reframe?.scale ?? 1) * (1 + (p.drift?.zoom ?? 0) * along(t));
    const dx = (p.reframe?.shiftX ?? 0) + (p.drift?.slideX ?? 0) * along(t);
    const dy = (p.reframe?.shiftY ?? 0) + (p.drift?.slideY ?? 0) * along(t);
    return { a: s, bx: ((1 - s) * W) / 2 + dx * W, by: ((1 - s) * H) / 2 + dy * H };
  };
  const calib = new Float64Array(4 * frameMap.length);
  frameMap.forEach((t, k) => {
    const f = framing(t);
    const rx = W / outW;
    const ry = H / outH;
    calib.set([rx / f.a, ry / f.a, -f.bx / f.a, -f.by / f.a], 4 * k);
  });
  const split = Math.round((layout.W_FRONT * W) / layout.WIDTH);
  const backdrop = p.fade
    ? (() => {
        const b = studioBackdrop(layout);
        return b.width === W && b.height === H ? b : resize(b, W, H);
      })()
    : null;
  const lerp = (a: number, b: number, w: number) => a + (b - a) * w;
  // Lag, fade and ghost act on the frames as delivered (after `fps` picks them): a model's clip
  // lags, fades and ghosts in its own frames, whatever its rate.
  async function* frames(): AsyncGenerator<RgbImage> {
    const sources: RgbImage[] = [];
    let prev: RgbImage | null = null;
    let t = 0;
    let k = 0;
    for await (const src of decodeVideo(clip, {
      info,
      timeout: o.timeout,
      ...(o.signal ? { signal: o.signal } : {}),
    })) {
      while (k < frameMap.length && frameMap[k] === t) {
        sources.push(src);
        if (sources.length > 3) sources.shift();
        let f: RgbImage = src;
        if (p.lag) {
          // One view shows the delivered frame `frames` back (the first frames hold frame 0).
          const late = sources[Math.max(0, sources.length - 1 - p.lag.frames)]!;
          const [x0, x1] = p.lag.view === 'front' ? [0, split] : [split, W];
          const data = src.data.slice();
          for (let y = 0; y < H; y++)
            data.set(late.data.subarray((y * W + x0) * 3, (y * W + x1) * 3), (y * W + x0) * 3);
          f = { width: W, height: H, data };
        }
        if (p.fade && backdrop && k < p.fade.frames) {
          const a = k / p.fade.frames;
          const data = new Uint8Array(f.data.length);
          for (let i = 0; i < data.length; i++) data[i] = Math.round(lerp(backdrop.data[i]!, f.data[i]!, a));
          f = { width: W, height: H, data };
        }
        if (p.ghost) {
          const before = prev;
          prev = f;
          if (before) {
            const data = new Uint8Array(f.data.length);
            for (let i = 0; i < data.length; i++)
              data[i] = Math.round(lerp(f.data[i]!, before.data[i]!, p.ghost.blend));
            f = { width: W, height: H, data };
          }
        }
        if (p.reframe || p.drift) {
          const m = framing(t);
          f = warpScaleShift(f, [m.a, m.a, m.bx, m.by], W, H, 'edge');
        }
        if (p.colour) {
          const w = along(t);
          const { from, to } = p.colour;
          f = gradeColour(f, {
            saturation: lerp(from.saturation, to.saturation, w),
            brightness: lerp(from.brightness, to.brightness, w),
            gamma: lerp(from.gamma, to.gamma, w),
            hue: lerp(from.hue, to.hue, w),
          });
        }
        yield f;
        k++;
      }
      t++;
    }
  }
  const filters: string[] = [];
  if (p.codec) {
    filters.push(`gblur=sigma=${p.codec.blurSigma.toFixed(3)}`);
    // ffmpeg's noise strength is about twice the standard deviation it adds (measured on flat grey).
    filters.push(`noise=alls=${Math.max(1, Math.round(2 * p.codec.noise))}:allf=t:all_seed=${o.seed >>> 0}`);
  }
  if (p.resize) filters.push(`scale=${outW}:${outH}:flags=area`);
  const n = await encodeVideo(out, frames(), {
    fps: fout,
    crf: p.codec?.crf ?? CLEAN_CRF,
    preset: o.preset,
    filters,
    timeout: o.timeout,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return {
    out,
    presets,
    params: p,
    width: outW,
    height: outH,
    fps: fout,
    frames: n,
    frameMap: frameMap.slice(0, n),
    calib: calib.slice(0, 4 * n),
  };
}

import { z } from 'zod';

/** The artefacts {@link degradeClip} applies one by one, as a video model leaves them. */
export const DEGRADE_PRESETS = [
  'codec',
  'resize',
  'reframe',
  'drift',
  'colour',
  'fps',
  'ghost',
  'lag',
  'fade',
] as const;

/** A preset name, or `all` (every preset at once). */
export const DegradePreset = z.enum([...DEGRADE_PRESETS, 'all']);
/** A preset name, or `all`. */
export type DegradePreset = z.infer<typeof DegradePreset>;

/**
 * The ranges each preset draws its parameters from (issue 14's list). Fractions are of the frame;
 * `drift` is the change from the first frame to the last.
 */
export const DEGRADE_RANGES = Object.freeze({
  /** H.264 at a crf, a Gaussian blur (px) and noise (grey levels, standard deviation). */
  codec: { crf: [28, 36], blurSigma: [0.5, 1.5], noise: [2, 8] },
  /** Another frame size: aspect, and height as a share of the clip's (both sides multiples of 16). */
  resize: { aspect: [1.6, 1.9], scale: [0.6, 1], multiple: 16 },
  /** The picture scaled about the frame's centre (the studio goes on around it) and shifted. */
  reframe: { scale: [0.88, 1], shift: 0.04 },
  /** The framing zooms and slides slowly: up to this share over the clip. */
  drift: { amount: 0.02 },
  /** Saturation, brightness (of full scale), gamma and hue (degrees), drifting from one draw to another over the clip. */
  colour: { saturation: [0.7, 1.2], brightness: [-0.06, 0.06], gamma: [0.85, 1.15], hue: [-10, 10] },
  /** The frame rate the clip is resampled to. */
  fps: { rates: [24, 16] },
  /** Each frame blended with the previous one by this share. */
  ghost: { blend: [0.2, 0.4] },
  /** One view this many frames behind the other. */
  lag: { frames: [1, 2] },
  /** The first frames fade in from the empty studio. */
  fade: { frames: [5, 10] },
});

/** One colour state of the `colour` preset. */
export const DegradeColour = z
  .object({
    saturation: z.number().positive(),
    /** Added, as a share of full scale. */
    brightness: z.number(),
    /** out = in ^ gamma on 0..1. */
    gamma: z.number().positive(),
    /** Degrees around the grey axis. */
    hue: z.number(),
  })
  .strict();
/** One colour state of the `colour` preset. */
export type DegradeColour = z.infer<typeof DegradeColour>;

/** The parameters {@link drawDegrade} drew for each preset it applies (what reports print). */
export const DegradeParams = z
  .object({
    codec: z
      .object({ crf: z.number().int(), blurSigma: z.number().positive(), noise: z.number().min(0) })
      .strict()
      .optional(),
    resize: z
      .object({ width: z.number().int().positive(), height: z.number().int().positive() })
      .strict()
      .optional(),
    /** Picture scale about the centre, then shift in shares of the frame. */
    reframe: z
      .object({ scale: z.number().positive(), shiftX: z.number(), shiftY: z.number() })
      .strict()
      .optional(),
    /** From the first frame to the last: zoom change (share) and slide (shares of the frame). */
    drift: z.object({ zoom: z.number(), slideX: z.number(), slideY: z.number() }).strict().optional(),
    colour: z.object({ from: DegradeColour, to: DegradeColour }).strict().optional(),
    fps: z.object({ fps: z.number().positive() }).strict().optional(),
    ghost: z
      .object({ blend: z.number().min(0).max(1) })
      .strict()
      .optional(),
    lag: z
      .object({ view: z.enum(['front', 'side']), frames: z.number().int().positive() })
      .strict()
      .optional(),
    fade: z.object({ frames: z.number().int().positive() }).strict().optional(),
  })
  .strict();
/** The parameters drawn for each preset applied. */
export type DegradeParams = z.infer<typeof DegradeParams>;

/**
 * Parses a comma-separated preset list as `--degrade` takes it (`codec,resize`, `all`); an unknown
 * name is a TypeError listing the known ones.
 *
 * ```ts
 * parseDegradePresets('codec,fps'); // ['codec', 'fps']
 * ```
 */
export function parseDegradePresets(list: string): DegradePreset[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (names.length === 0) {
    throw new TypeError(
      `degrade: expected one or more of ${DegradePreset.options.join(', ')}, got "${list}".`,
    );
  }
  return names.map((n) => {
    const r = DegradePreset.safeParse(n);
    if (!r.success) {
      throw new TypeError(`degrade: "${n}" is not a preset; expected ${DegradePreset.options.join(', ')}.`);
    }
    return r.data;
  });
}

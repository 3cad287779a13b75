/** The wall's pixel noise through a clip and how many frames were box-blurred before labelling. */
export interface ClipNoise {
  /** The most noise a frame's wall showed, 0-255 levels (`frameNoise`). */
  max: number;
  /** Frames box-blurred before the colour model labelled them (`RefineClipOptions.denoiseAbove`). */
  denoised: number;
  /** Frames labelled with the backdrop's light fitted across each view (`RefineClipOptions.fieldEvery`: a vignette, a spotlight). */
  unevenLight: number;
  /** Frames whose labelled outline was unmixed from the backdrop, their edges soft (`RefineClipOptions.unmixPasses`). */
  softEdges: number;
  /** The widest the divider read in a frame, px (`dividerWidth`; NaN where no frame showed it). */
  dividerPx: number;
}

/**
 * What the refinement found of the clip's pixel noise, as the line `mocap detect` and `mocap
 * capture` print.
 *
 * ```ts
 * describeNoise({ max: 13.3, denoised: 120, unevenLight: 0, softEdges: 120, dividerPx: 2.6 }, 120);
 * // noise: up to 13.3 levels on the wall; 120 of 120 frames box-blurred before labelling; edges
 * // soft (the divider up to 2.6 px wide) on 120 of 120 frames: outlines unmixed from the backdrop
 * ```
 */
export function describeNoise(noise: ClipNoise, frames: number): string {
  const level = noise.max.toFixed(1);
  const light =
    noise.unevenLight > 0
      ? `; light uneven across the backdrop on ${noise.unevenLight} of ${frames} frames (labelled against it)`
      : '';
  const divider = Number.isFinite(noise.dividerPx)
    ? ` (the divider up to ${noise.dividerPx.toFixed(1)} px wide)`
    : '';
  const soft =
    noise.softEdges > 0
      ? `; edges soft${divider} on ${noise.softEdges} of ${frames} frames: outlines unmixed from the backdrop`
      : '';
  return noise.denoised > 0
    ? `noise: up to ${level} levels on the wall; ${noise.denoised} of ${frames} frames box-blurred before labelling${light}${soft}`
    : `noise: none to speak of (${level} levels on the wall at most)${light}${soft}`;
}

import type { Layout } from '@mocap/layout';
import { creatureScales, type TwoViewPeaks } from './creature-scale.js';
import { layoutLines } from './measure-backdrop.js';
import type { RigidPair } from './rigid-pairs.js';
import { type ScaleTrend, scaleTrend } from './scale-trend.js';

/** What {@link creatureZoom} found: the creature's size through the clip and the zoom it shows. */
export interface CreatureZoom {
  /** Per frame, how much larger the calibration shows the creature than on frame `anchor` (1: as large). */
  factor: Float64Array;
  /** The line through the per-frame sizes, when there were enough. */
  trend: ScaleTrend | null;
  /** The size's change over the clip, as a share (+0.01: 1% larger at the end). */
  change: number;
  /** Whether the change is clear enough to correct ({@link CREATURE_ZOOM}); `factor` is all 1 otherwise. */
  applied: boolean;
}

/** When the creature's size is taken to show a zoom. */
export const CREATURE_ZOOM = Object.freeze({
  /** The change over the clip must be at least this share (a gait's swings leave less). */
  minChange: 0.003,
  /** ... and this many standard errors of the slope. */
  minT: 4,
  /** Rigid pairs at least this far apart at rest, layout px. */
  minPairPx: 40,
});

/**
 * The zoom a drifting framing adds after calibration, from the creature's own size: the rigid
 * pairs' lengths ({@link creatureScales}) followed by a robust line through the clip
 * ({@link scaleTrend}); `factor` is that line over its value on frame `anchor` (the frame whose
 * zoom the calibration knows: the studio's edges, ref.png or the frame's size). A change under
 * {@link CREATURE_ZOOM}'s bounds is taken as none.
 *
 * ```ts
 * const z = creatureZoom(peaks, k, T, pairs);
 * if (z.applied) rescaleAboutLines(det, z.factor, layout);
 * ```
 */
export function creatureZoom(
  peaks: TwoViewPeaks,
  k: number,
  frames: number,
  pairs: readonly RigidPair[],
  anchor = 0,
): CreatureZoom {
  const factor = new Float64Array(frames).fill(1);
  const trend = scaleTrend(creatureScales(peaks, k, frames, pairs), 4);
  if (!trend || frames < 2) return { factor, trend, change: 0, applied: false };
  const at = (t: number) => trend.intercept + trend.slope * t;
  const change = (at(frames - 1) - at(0)) / at(0);
  const applied =
    Math.abs(change) >= CREATURE_ZOOM.minChange &&
    Math.abs(trend.slope) >= CREATURE_ZOOM.minT * trend.slopeSe &&
    at(anchor) > 0;
  if (applied) for (let t = 0; t < frames; t++) factor[t] = at(t) / at(anchor);
  return { factor, trend, change, applied };
}

/**
 * Takes a zoom `factor` (per frame: how much larger than true the calibration shows the clip) out
 * of a clip's layout-px results, about the divider column and ground row the calibration fixed:
 * `points` (T x K x 2 per view, stage 1's peaks) are scaled about them; `bodies` (the refinement's
 * keypoints, whose rig keeps its size) are moved as their centre is, keeping their shape; the
 * calibration track (T x 4, `[sx, sy, tx, ty]`) is rescaled. All in place.
 *
 * ```ts
 * unzoom(z.factor, layout, { points: [heatmaps], bodies: [refined], track: calibFrames, k });
 * ```
 */
export function unzoom(
  factor: Float64Array,
  layout: Layout,
  o: {
    k: number;
    points?: { frontUv: Float32Array | Float64Array; sideUv: Float32Array | Float64Array }[];
    bodies?: { frontUv: Float32Array | Float64Array; sideUv: Float32Array | Float64Array }[];
    track?: Float64Array;
  },
): void {
  const { divider: D, ground: G } = layoutLines(layout);
  const T = factor.length;
  const k = o.k;
  for (const p of o.points ?? [])
    for (const uv of [p.frontUv, p.sideUv])
      for (let t = 0; t < Math.min(T, uv.length / (2 * k)); t++) {
        const e = factor[t]!;
        for (let i = 2 * t * k; i < 2 * (t + 1) * k; i += 2) {
          uv[i] = D + (uv[i]! - D) / e;
          uv[i + 1] = G + (uv[i + 1]! - G) / e;
        }
      }
  for (const b of o.bodies ?? [])
    for (let t = 0; t < Math.min(T, b.frontUv.length / (2 * k)); t++) {
      // One shift per view along u, one for both views' rows (they share them).
      const e = factor[t]!;
      const c = [0, 0];
      const n = [0, 0];
      let cv = 0;
      let nv = 0;
      [b.frontUv, b.sideUv].forEach((uv, view) => {
        for (let i = 2 * t * k; i < 2 * (t + 1) * k; i += 2) {
          if (!Number.isFinite(uv[i]!) || !Number.isFinite(uv[i + 1]!)) continue;
          c[view]! += uv[i]!;
          n[view]!++;
          cv += uv[i + 1]!;
          nv++;
        }
      });
      if (nv === 0) continue;
      cv /= nv;
      const dv = G + (cv - G) / e - cv;
      [b.frontUv, b.sideUv].forEach((uv, view) => {
        if (n[view] === 0) return;
        const cu = c[view]! / n[view]!;
        const du = D + (cu - D) / e - cu;
        for (let i = 2 * t * k; i < 2 * (t + 1) * k; i += 2) {
          uv[i] = uv[i]! + du;
          uv[i + 1] = uv[i + 1]! + dv;
        }
      });
    }
  const tr = o.track;
  if (tr)
    for (let t = 0; t < Math.min(T, tr.length / 4); t++) {
      const e = factor[t]!;
      tr[4 * t + 2] = D - (D - tr[4 * t + 2]!) / e;
      tr[4 * t + 3] = G - (G - tr[4 * t + 3]!) / e;
      tr[4 * t] = tr[4 * t]! / e;
      tr[4 * t + 1] = tr[4 * t + 1]! / e;
    }
}

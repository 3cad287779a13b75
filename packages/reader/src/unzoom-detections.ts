import type { Detections, Layout } from '@mocap/layout';
import type { ClipCalibration } from './calibrate-clip.js';
import { CREATURE_ZOOM, type CreatureZoom, creatureZoom, unzoom } from './creature-zoom.js';
import type { RigidPair } from './rigid-pairs.js';

/**
 * Where the calibration had to assume the zoom (no layout edge in view on either axis: ref.png's
 * or the frame's size, known on one frame), a zoom through the clip is taken out of the peaks, the
 * refined keypoints and the calibration track, which `heatmaps.calibFrames` then holds (and
 * `calibration.frames`, `drifts`, `drift`), and recorded in `calibration.creatureZoom`. In place.
 * `follow` with `zoom`: the refinement fitted its rig's zoom per frame (`RefineClipResult.zoom`);
 * over its value on the calibration's anchor frame, it scales the peaks and the refined keypoints
 * back about the divider and ground row. Without `zoom` (no refinement, or the framing held
 * still), or with `report` / `apply`: the creature's size in stage 1's peaks
 * ({@link creatureZoom}) is recorded, and with `apply` a clear change taken out (the refined
 * keypoints moved, not resized). Returns what was found, or null when the calibration measured
 * the zoom itself.
 *
 * ```ts
 * const z = unzoomDetections(heatmaps, refined, calibration, pairs, layout, 'follow', r.zoom);
 * ```
 */
export function unzoomDetections(
  heatmaps: Detections,
  refined: Pick<Detections, 'frontUv' | 'sideUv'> | null,
  calibration: ClipCalibration,
  pairs: readonly RigidPair[],
  layout: Layout,
  mode: 'follow' | 'report' | 'apply',
  zoom: ArrayLike<number> | null = null,
): CreatureZoom | null {
  if (!zoomAssumed(calibration)) return null;
  const k = heatmaps.names.length;
  const T = heatmaps.frames;
  const anchor = zoomAnchor(calibration, T);
  const followed = mode === 'follow' && zoom !== null && zoom.length > 0;
  const z = followed ? followedZoom(zoom, T, anchor) : creatureZoom(heatmaps, k, T, pairs, anchor);
  const applied = followed || (z.applied && mode === 'apply');
  calibration.creatureZoom = { change: z.change, clear: z.applied, applied, followed };
  if (!z.applied && !followed) return z;
  if (!applied) return { ...z, factor: new Float64Array(T).fill(1), applied: false };
  const track = calibration.frames.slice(0, 4 * T);
  // a followed zoom drew the rig zoomed: its keypoints are scaled back as the peaks are
  if (followed) unzoom(z.factor, layout, { k, points: refined ? [heatmaps, refined] : [heatmaps], track });
  else unzoom(z.factor, layout, { k, points: [heatmaps], bodies: refined ? [refined] : [], track });
  calibration.frames.set(track);
  heatmaps.calibFrames = track;
  calibration.drifts ||= z.applied;
  const a = track.subarray(0, 4);
  const b = track.subarray(4 * (T - 1), 4 * T);
  const { width: w, height: h } = calibration;
  calibration.drift = {
    ...calibration.drift,
    zoomX: 100 * (b[0]! / a[0]! - 1),
    zoomY: 100 * (b[1]! / a[1]! - 1),
    slideX: b[0]! * (w / 2) + b[2]! - (a[0]! * (w / 2) + a[2]!),
    slideY: b[1]! * (h / 2) + b[3]! - (a[1]! * (h / 2) + a[3]!),
  };
  return z;
}

/** The frame whose zoom the calibration knows: ref.png's, else the first it used. */
function zoomAnchor(calibration: ClipCalibration, frames: number): number {
  return Math.min(
    frames - 1,
    calibration.refZoom?.frame ?? calibration.samples.find((s) => s.used)?.frame ?? 0,
  );
}

/** Whether the calibration had to assume the zoom (no layout edge in view on either axis). */
export function zoomAssumed(calibration: ClipCalibration | null): calibration is ClipCalibration {
  return calibration !== null && calibration.scale.x !== 'edges' && calibration.scale.y !== 'edges';
}

/** The zoom a refinement followed, over its value on frame `anchor`; clear from CREATURE_ZOOM's share. */
function followedZoom(zoom: ArrayLike<number>, frames: number, anchor: number): CreatureZoom {
  const factor = new Float64Array(frames);
  const at = (t: number) => zoom[Math.min(t, zoom.length - 1)]!;
  for (let t = 0; t < frames; t++) factor[t] = at(t) / at(anchor);
  const change = factor[frames - 1]! / factor[0]! - 1;
  return { factor, trend: null, change, applied: Math.abs(change) >= CREATURE_ZOOM.minChange };
}

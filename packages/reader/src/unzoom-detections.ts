import type { Detections, Layout } from '@mocap/layout';
import type { ClipCalibration } from './calibrate-clip.js';
import { type CreatureZoom, creatureZoom, unzoom } from './creature-zoom.js';
import type { RigidPair } from './rigid-pairs.js';

/**
 * Where the calibration had to assume the zoom (no layout edge in view on either axis: ref.png's
 * or the frame's size, known on one frame), the creature's size gives its change through the clip
 * ({@link creatureZoom} on stage 1's peaks, `heatmaps`), recorded in `calibration.creatureZoom`;
 * with `apply`, a clear change is taken out of the peaks,
 * the refined keypoints (`refined`, moved, not resized) and the calibration track, which
 * `heatmaps.calibFrames` then holds (and `calibration.frames`, `drifts`, `drift`). In place.
 * Returns what was found, or null when the calibration measured the zoom itself.
 *
 * ```ts
 * const z = unzoomDetections(heatmaps, refined, calibration, pairs, layout, true);
 * ```
 */
export function unzoomDetections(
  heatmaps: Detections,
  refined: Pick<Detections, 'frontUv' | 'sideUv'> | null,
  calibration: ClipCalibration,
  pairs: readonly RigidPair[],
  layout: Layout,
  apply: boolean,
): CreatureZoom | null {
  if (calibration.scale.x === 'edges' || calibration.scale.y === 'edges') return null;
  const k = heatmaps.names.length;
  const T = heatmaps.frames;
  // The frame whose zoom is known: ref.png's, else the first the calibration used.
  const anchor = Math.min(
    T - 1,
    calibration.refZoom?.frame ?? calibration.samples.find((s) => s.used)?.frame ?? 0,
  );
  const z = creatureZoom(heatmaps, k, T, pairs, anchor);
  calibration.creatureZoom = { change: z.change, clear: z.applied, applied: z.applied && apply };
  if (!z.applied) return z;
  if (!apply) return { ...z, factor: new Float64Array(T).fill(1), applied: false };
  const track = calibration.frames.slice(0, 4 * T);
  unzoom(z.factor, layout, {
    k,
    points: [heatmaps],
    bodies: refined ? [refined] : [],
    track,
  });
  calibration.frames.set(track);
  heatmaps.calibFrames = track;
  calibration.drifts = true;
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

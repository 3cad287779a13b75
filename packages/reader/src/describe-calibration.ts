import type { ClipCalibration } from './calibrate-clip.js';

const SCALE_FROM = {
  edges: "the layout's edges in view",
  ref: "ref.png's creature",
  frame: "the frame's size",
} as const;

const signed = (x: number, digits: number) => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;

/**
 * The calibration {@link calibrateClip} found, as the lines `mocap detect` and `mocap capture`
 * print: the typical mapping and where its scale came from, the frames skipped and why, and the
 * drift of the framing through the clip.
 *
 * ```ts
 * for (const line of describeCalibration(c)) process.stderr.write(`${line}\n`);
 * // calib: 832 x 480 clip -> layout u = 1.5385 u + 0.06, v = 1.5000 v + 0.02 (scale from the frame's size; 17 of 17 frames measured fit)
 * // drift: none (no frame corner moves more than 0.05 layout px)
 * ```
 */
export function describeCalibration(c: ClipCalibration): string[] {
  const { sx, sy, tx, ty } = c.calib;
  const used = c.samples.filter((s) => s.used).length;
  const from =
    c.scale.x === c.scale.y
      ? SCALE_FROM[c.scale.x]
      : `${SCALE_FROM[c.scale.x]} (u), ${SCALE_FROM[c.scale.y]} (v)`;
  const byRef = c.scale.x === 'ref' || c.scale.y === 'ref';
  const zoom = !c.refZoom
    ? ''
    : byRef
      ? `, zoom ${c.refZoom.zoom.toFixed(4)} on frame ${c.refZoom.frame}`
      : `; ref.png agrees to ${(100 * Math.abs(c.refZoom.zoom - 1)).toFixed(2)}% on frame ${c.refZoom.frame}`;
  const { x0, x1, y0, y1 } = c.content;
  const bars =
    x0 > 0 || y0 > 0 || x1 < c.width || y1 < c.height
      ? `; picture inside bars: ${(x1 - x0).toFixed(0)} x ${(y1 - y0).toFixed(0)} at (${x0.toFixed(0)}, ${y0.toFixed(0)})`
      : '';
  const lines = [
    `calib: ${c.width} x ${c.height} clip -> layout u = ${sx.toFixed(4)} u ${signed(tx, 2)}, v = ${sy.toFixed(4)} v ${signed(ty, 2)} (scale from ${from}${zoom}; ${used} of ${c.samples.length} frames measured fit${bars})`,
  ];
  const skipped = c.samples.filter((s) => !s.used);
  if (skipped.length > 0) {
    lines.push(
      `calib: skipped frame${skipped.length > 1 ? 's' : ''} ${skipped.map((s) => s.frame).join(', ')} (frame ${skipped[0]!.frame}: ${skipped[0]!.why})`,
    );
  }
  const d = c.drift;
  lines.push(
    c.drifts
      ? `drift: zoom ${signed(d.zoomX, 2)}% u, ${signed(d.zoomY, 2)}% v, slide ${signed(d.slideX, 1)}, ${signed(d.slideY, 1)} layout px from the first frame to the last (a frame corner strays up to ${d.maxPx.toFixed(1)} px); followed frame by frame (det.npz calib_frames)`
      : `drift: none (no frame corner moves more than ${d.maxPx.toFixed(2)} layout px)`,
  );
  lines.push(...describeCreatureZoom(c));
  if (c.ghost && c.ghost.blend > 0) {
    lines.push(
      `ghost: each frame holds ${(100 * c.ghost.blend).toFixed(0)}% of the one before (${c.ghost.steps} pixel steps measured); undone before reading`,
    );
  }
  return lines;
}

/**
 * The line for the creature's zoom through the clip where the studio shows none (known after
 * reading: detectClip's `zoom` event), or none when there is no clear one.
 *
 * ```ts
 * for (const line of describeCreatureZoom(calibration)) console.error(line);
 * ```
 */
export function describeCreatureZoom(c: ClipCalibration): string[] {
  const z = c.creatureZoom;
  if (!z?.clear) return [];
  const what = z.followed
    ? "fitted with the rig's pose frame by frame and taken out of the calibration and the keypoints"
    : z.applied
      ? 'taken out of the calibration and the keypoints'
      : 'not taken out (a gait or the codec can show as much; --creature-zoom apply takes it out)';
  return [
    `drift: the creature's size changes ${signed(100 * z.change, 2)}% through the clip where the studio shows no zoom; ${what}`,
  ];
}

/** The calibration as JSON reports carry it: the mapping, its source, the drift and the skipped frames. */
export function calibrationSummary(c: ClipCalibration) {
  return {
    calib: [c.calib.sx, c.calib.sy, c.calib.tx, c.calib.ty],
    size: [c.width, c.height],
    scale: c.scale,
    refZoom: c.refZoom ? { zoom: c.refZoom.zoom, frame: c.refZoom.frame } : null,
    drifts: c.drifts,
    drift: c.drift,
    measured: c.samples.length,
    skipped: c.samples.filter((s) => !s.used).map((s) => ({ frame: s.frame, why: s.why })),
    ghost: c.ghost ? c.ghost.blend : null,
    creatureZoom: c.creatureZoom ?? null,
  };
}

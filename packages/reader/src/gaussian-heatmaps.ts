/**
 * Renders one Gaussian per joint into a `size` x `size` x J heatmap (HWC, peak 1), centred at
 * continuous heatmap coordinates (pixel i spans [i, i + 1), so its centre is i + 0.5). A joint
 * whose centre is not finite gets an all-zero map.
 *
 * ```ts
 * const target = gaussianHeatmaps(new Float32Array([10.3, 20.7]), 64, 2);
 * ```
 */
export function gaussianHeatmaps(
  xy: ArrayLike<number>,
  size: number,
  sigma: number,
  out = new Float32Array(size * size * (xy.length / 2)),
  offset = 0,
): Float32Array {
  const joints = xy.length / 2;
  const inv = 1 / (2 * sigma * sigma);
  const reach = Math.ceil(4 * sigma);
  for (let j = 0; j < joints; j++) {
    const cx = xy[2 * j] as number;
    const cy = xy[2 * j + 1] as number;
    if (!Number.isFinite(cx) || !Number.isFinite(cy)) continue;
    const y0 = Math.max(0, Math.floor(cy - reach));
    const y1 = Math.min(size - 1, Math.ceil(cy + reach));
    const x0 = Math.max(0, Math.floor(cx - reach));
    const x1 = Math.min(size - 1, Math.ceil(cx + reach));
    for (let y = y0; y <= y1; y++) {
      const dy = y + 0.5 - cy;
      for (let x = x0; x <= x1; x++) {
        const dx = x + 0.5 - cx;
        out[offset + (y * size + x) * joints + j] = Math.exp(-(dx * dx + dy * dy) * inv);
      }
    }
  }
  return out;
}

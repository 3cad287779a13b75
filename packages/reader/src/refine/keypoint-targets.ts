/**
 * Heatmap peaks for the keypoint terms: keypoint k, a point fixed in joint `joints[k]`'s frame
 * (its origin, or `offsets[3k..3k+2]` in the joint's local units, e.g. `(0, length, 0)` for the
 * tail of a bone Blender exported), should project to `uv[4k..4k+3]` (front u, v, side u, v;
 * layout px) with confidences `conf[2k]` (front) and `conf[2k + 1]` (side).
 */
export interface KeypointTargets {
  joints: Int32Array;
  uv: Float64Array;
  conf: Float64Array;
  offsets?: Float64Array;
}

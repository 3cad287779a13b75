/** A motion in flat arrays: `trans` T x 3, `rootQuat` T x 4 (W, X, Y, Z), `euler` T x B x 3 radians. */
export interface FlatMotion {
  frames: number;
  fps: number;
  trans: Float64Array;
  rootQuat: Float64Array;
  euler: Float64Array;
  /** Keypoints T x K x 3, metres. */
  joints: Float64Array;
}

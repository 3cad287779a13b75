/** How a {@link ClipChannel} interpolates between keys (glTF's sampler interpolation). */
export type ClipInterpolation = 'LINEAR' | 'STEP' | 'CUBICSPLINE';

/** One animated property of one node of a {@link SkeletonClip}. */
export interface ClipChannel {
  /** Index of the node in {@link SkeletonClip.names}. */
  node: number;
  path: 'translation' | 'rotation';
  interpolation: ClipInterpolation;
  /** Key times, seconds, increasing. */
  times: Float64Array;
  /**
   * Key values: 3 (translation) or 4 (rotation, XYZW) per key; CUBICSPLINE stores in-tangent,
   * value and out-tangent per key, as glTF does.
   */
  values: Float64Array;
}

/**
 * An animation of a node hierarchy, whatever file it came from (a glTF animation, a BVH): the
 * nodes' rest transforms, the channels that move them, and each node's bind pose (the pose the
 * creature's mesh and rig were made in). Units and axes are the file's own.
 */
export interface SkeletonClip {
  /** The file and animation, as errors name them (`Fox.glb#Walk`). */
  source: string;
  /** Node names, parents before children. */
  names: string[];
  /** Parent index per node, -1 at the top. */
  parent: Int32Array;
  /** Rest translation per node (N x 3), in its parent's frame. */
  restTranslation: Float64Array;
  /** Rest rotation per node (N x 4, XYZW), in its parent's frame. */
  restRotation: Float64Array;
  /** Rest scale per node (N x 3); scale channels are not read (a rig bone cannot scale). */
  restScale: Float64Array;
  /** World bind matrix per node (N x 16, column-major): a skin's inverse bind matrix inverted, else the rest. */
  bind: Float64Array;
  channels: ClipChannel[];
  /** First and last key time over all channels, seconds. */
  start: number;
  end: number;
}

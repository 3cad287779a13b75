/**
 * A quarter-size layout (320 x 180, the default's proportions): keeps Blender renders, readers
 * and datasets in tests quick. A `LayoutInput`; `Layout.parse` it where a full `Layout` is needed.
 */
export const QUARTER_LAYOUT = Object.freeze({
  WIDTH: 320,
  HEIGHT: 180,
  W_FRONT: 105,
  W_SIDE: 215,
  GROUND_V: 160,
  M_PER_PX: 1.9 / 180,
});

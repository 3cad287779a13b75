import type { Layout } from './layout.js';
import { ViewProjection } from './view-projection.js';

/**
 * Front view: camera at -Y looking +Y. Column u grows with world x, row v grows downward with -z.
 * Coordinates are full-frame layout px (pixel i spans [i, i+1)); the front view's centre column
 * `W_FRONT / 2` sees world x = `FRONT_CX`, and row `GROUND_V` is z = 0.
 *
 * ```ts
 * const [u, v] = worldToFront([0.1, 0, 0.5], DEFAULT_LAYOUT);
 * ```
 */
export function worldToFront(p: ArrayLike<number>, layout: Layout): [number, number] {
  const proj = new ViewProjection(layout);
  return [proj.frontU(p[0] as number), proj.row(p[2] as number)];
}

/**
 * Side view: camera at -X looking +X at the right flank, head to the right. Column u (full-frame
 * px, so it runs from `W_FRONT` to `WIDTH`) grows with world -y; the view's centre column
 * `W_FRONT + W_SIDE / 2` sees y = `SIDE_CY`; rows as in {@link worldToFront}.
 */
export function worldToSide(p: ArrayLike<number>, layout: Layout): [number, number] {
  const proj = new ViewProjection(layout);
  return [proj.sideU(p[1] as number), proj.row(p[2] as number)];
}

/** World x seen at front-view column `u`. */
export function frontUToX(u: number, layout: Layout): number {
  return new ViewProjection(layout).x(u);
}

/** World y seen at side-view column `u` (full-frame px). */
export function sideUToY(u: number, layout: Layout): number {
  return new ViewProjection(layout).y(u);
}

/** World height z seen at row `v` (either view). */
export function vToZ(v: number, layout: Layout): number {
  return new ViewProjection(layout).z(v);
}

/**
 * World point from a front-view column, a side-view column and one row: the exact inverse of
 * {@link worldToFront} + {@link worldToSide} for a point seen in both views.
 */
export function viewsToWorld(
  frontU: number,
  sideU: number,
  v: number,
  layout: Layout,
): [number, number, number] {
  const proj = new ViewProjection(layout);
  return [proj.x(frontU), proj.y(sideU), proj.z(v)];
}

/**
 * Projects N world points (`world`, N x 3, row-major) into both views in one pass.
 * `front` and `side` receive N x 2 layout px. Works for any T x J batch flattened to N = T * J.
 * Returns `front`.
 *
 * ```ts
 * const front = new Float64Array(n * 2), side = new Float64Array(n * 2);
 * projectPoints(front, side, joints, layout);
 * ```
 */
export function projectPoints(
  front: Float64Array | Float32Array,
  side: Float64Array | Float32Array,
  world: ArrayLike<number>,
  layout: Layout,
): Float64Array | Float32Array {
  const n = Math.floor(world.length / 3);
  if (front.length < n * 2 || side.length < n * 2) {
    throw new RangeError(
      `projectPoints: expected outputs of ${n * 2} values, got ${front.length} and ${side.length}.`,
    );
  }
  const proj = new ViewProjection(layout);
  for (let i = 0; i < n; i++) {
    const v = proj.row(world[3 * i + 2] as number);
    front[2 * i] = proj.frontU(world[3 * i] as number);
    front[2 * i + 1] = v;
    side[2 * i] = proj.sideU(world[3 * i + 1] as number);
    side[2 * i + 1] = v;
  }
  return front;
}

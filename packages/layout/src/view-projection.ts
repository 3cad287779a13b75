import type { Layout } from './layout.js';

/**
 * The layout's two orthographic views with their constants precomputed: the one home of the
 * projection formula and its inverse, allocation-free for hot loops. Front view: column u grows
 * with world x (`frontU`); side view: full-frame column u grows with world -y (`sideU`); both
 * share the row v, which grows downward with -z (`row`). The derivatives are constant:
 * d frontU/dx = 1/m, d sideU/dy = -1/m, d row/dz = -1/m (with m = `M_PER_PX`).
 *
 * ```ts
 * const proj = new ViewProjection(layout);
 * for (let i = 0; i < n; i++) proj.projectTo(uvv, 3 * i, x[i], y[i], z[i]); // [frontU, sideU, row]
 * ```
 */
export class ViewProjection {
  /** Metres per layout px (`M_PER_PX`). */
  readonly m: number;
  /** The front-view column that sees x = `FRONT_CX`: `W_FRONT / 2`. */
  readonly frontC: number;
  /** The full-frame side-view column that sees y = `SIDE_CY`: `W_FRONT + W_SIDE / 2`. */
  readonly sideC: number;
  /** World x at the front view's centre column. */
  readonly cx: number;
  /** World y at the side view's centre column. */
  readonly cy: number;
  /** The row of z = 0. */
  readonly groundV: number;

  constructor(layout: Layout) {
    this.m = layout.M_PER_PX;
    this.frontC = layout.W_FRONT / 2;
    this.sideC = layout.W_FRONT + layout.W_SIDE / 2;
    this.cx = layout.FRONT_CX;
    this.cy = layout.SIDE_CY;
    this.groundV = layout.GROUND_V;
  }

  /** Front-view column (layout px) of world x. */
  frontU(x: number): number {
    return this.frontC + (x - this.cx) / this.m;
  }

  /** Side-view column (full-frame layout px, `W_FRONT` to `WIDTH`) of world y. */
  sideU(y: number): number {
    return this.sideC - (y - this.cy) / this.m;
  }

  /** Row (either view, layout px) of world height z. */
  row(z: number): number {
    return this.groundV - z / this.m;
  }

  /** World x seen at front-view column `u`: the inverse of {@link ViewProjection.frontU}. */
  x(u: number): number {
    return this.cx + (u - this.frontC) * this.m;
  }

  /** World y seen at side-view column `u`: the inverse of {@link ViewProjection.sideU}. */
  y(u: number): number {
    return this.cy - (u - this.sideC) * this.m;
  }

  /** World height z seen at row `v`: the inverse of {@link ViewProjection.row}. */
  z(v: number): number {
    return (this.groundV - v) * this.m;
  }

  /**
   * Writes `[frontU, sideU, row]` of the point (x, y, z) to `out[offset..offset + 2]` and
   * returns `out`.
   */
  projectTo<T extends { [i: number]: number }>(out: T, offset: number, x: number, y: number, z: number): T {
    out[offset] = this.frontU(x);
    out[offset + 1] = this.sideU(y);
    out[offset + 2] = this.row(z);
    return out;
  }
}

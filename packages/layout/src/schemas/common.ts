import { z } from 'zod';

/** A finite number (no NaN or infinity). */
export const Finite = z.number().refine(Number.isFinite, 'must be a finite number');
/** A 3-vector. */
export const Vec3 = z.tuple([Finite, Finite, Finite]);
/** A 3-vector. */
export type Vec3 = z.infer<typeof Vec3>;
/** A 2-vector. */
export const Vec2 = z.tuple([Finite, Finite]);
/** A 2-vector. */
export type Vec2 = z.infer<typeof Vec2>;
/** A quaternion as Blender writes it: W, X, Y, Z. */
export const QuatWxyz = z.tuple([Finite, Finite, Finite, Finite]);
/** A quaternion as Blender writes it: W, X, Y, Z. */
export type QuatWxyz = z.infer<typeof QuatWxyz>;
/** A 4 x 4 matrix as rows, as Python writes `[list(r) for r in m]` for a Blender Matrix. */
export const Mat4Rows = z.tuple([
  z.tuple([Finite, Finite, Finite, Finite]),
  z.tuple([Finite, Finite, Finite, Finite]),
  z.tuple([Finite, Finite, Finite, Finite]),
  z.tuple([Finite, Finite, Finite, Finite]),
]);
/** A 4 x 4 matrix as rows. */
export type Mat4Rows = z.infer<typeof Mat4Rows>;

/** A [min, max] range in degrees with min <= max. */
export const RangeDeg = z.tuple([Finite, Finite]).refine(([a, b]) => a <= b, 'min must not exceed max');
/** Euler limits of one bone in degrees: [[xmin, xmax], [ymin, ymax], [zmin, zmax]]. */
export const LimitsDeg = z.tuple([RangeDeg, RangeDeg, RangeDeg]);
/** Euler limits of one bone in degrees. */
export type LimitsDeg = z.infer<typeof LimitsDeg>;

/** A non-empty name. */
export const Name = z.string().min(1, 'must not be empty');

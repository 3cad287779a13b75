/**
 * Writable numeric storage that out-first functions write into: a `Float64Array`, a `number[]`,
 * or a `subarray` view into a larger track.
 */
export type Out = { [index: number]: number; readonly length: number };

/** A 3-vector, `[x, y, z]`. */
export type Vec3 = Float64Array;
/** A quaternion, **XYZW** in memory (glTF and three.js order; Blender's WXYZ is converted explicitly). */
export type Quat = Float64Array;
/** A 3 x 3 matrix, **column-major**: `m[col * 3 + row]` (like three.js `elements`). */
export type Mat3 = Float64Array;
/** A 4 x 4 matrix, **column-major**: `m[col * 4 + row]` (like three.js `elements`). */
export type Mat4 = Float64Array;

/**
 * The one tolerance the package shares: below it a length, angle or determinant counts as zero.
 * Sized for Float64 math (gl-matrix uses 1e-6 for Float32).
 */
export const EPSILON = 1e-10;

/**
 * A new zero 3-vector.
 *
 * ```ts
 * const v = vec3(); // Float64Array [0, 0, 0]
 * ```
 */
export function vec3(x = 0, y = 0, z = 0): Vec3 {
  const v = new Float64Array(3);
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return v;
}

/**
 * A new identity quaternion `[0, 0, 0, 1]` (XYZW).
 *
 * ```ts
 * const q = quat();
 * ```
 */
export function quat(): Quat {
  const q = new Float64Array(4);
  q[3] = 1;
  return q;
}

/**
 * A new 3 x 3 identity matrix.
 *
 * ```ts
 * const m = mat3();
 * ```
 */
export function mat3(): Mat3 {
  const m = new Float64Array(9);
  m[0] = 1;
  m[4] = 1;
  m[8] = 1;
  return m;
}

/**
 * A new 4 x 4 identity matrix.
 *
 * ```ts
 * const m = mat4();
 * ```
 */
export function mat4(): Mat4 {
  const m = new Float64Array(16);
  m[0] = 1;
  m[5] = 1;
  m[10] = 1;
  m[15] = 1;
  return m;
}

/**
 * Flat column-major 4 x 4 matrix helpers with offsets (`m[o + col * 4 + row]`), so a whole
 * skeleton's matrices live in one Float64Array and nothing is allocated per frame.
 */

/**
 * Writes the matrix T * R * S of a translation, a unit quaternion (X, Y, Z, W) and a scale, as
 * glTF composes a node's TRS, into `out[oo..oo+15]`.
 *
 * ```ts
 * mat4FromTrs(world, 16 * j, pose.translation, 3 * j, pose.rotation, 4 * j, pose.scale, 3 * j);
 * ```
 */
export function mat4FromTrs(
  out: Float64Array,
  oo: number,
  t: ArrayLike<number>,
  to: number,
  q: ArrayLike<number>,
  qo: number,
  s: ArrayLike<number>,
  so: number,
): Float64Array {
  const x = q[qo];
  const y = q[qo + 1];
  const z = q[qo + 2];
  const w = q[qo + 3];
  const sx = s[so];
  const sy = s[so + 1];
  const sz = s[so + 2];
  out[oo] = (1 - 2 * (y * y + z * z)) * sx;
  out[oo + 1] = 2 * (x * y + w * z) * sx;
  out[oo + 2] = 2 * (x * z - w * y) * sx;
  out[oo + 3] = 0;
  out[oo + 4] = 2 * (x * y - w * z) * sy;
  out[oo + 5] = (1 - 2 * (x * x + z * z)) * sy;
  out[oo + 6] = 2 * (y * z + w * x) * sy;
  out[oo + 7] = 0;
  out[oo + 8] = 2 * (x * z + w * y) * sz;
  out[oo + 9] = 2 * (y * z - w * x) * sz;
  out[oo + 10] = (1 - 2 * (x * x + y * y)) * sz;
  out[oo + 11] = 0;
  out[oo + 12] = t[to];
  out[oo + 13] = t[to + 1];
  out[oo + 14] = t[to + 2];
  out[oo + 15] = 1;
  return out;
}

/**
 * `out[oo..] = a[ao..] * b[bo..]` for column-major 4 x 4 matrices. `out` may alias `b` only if
 * the offsets differ from `a`'s block; it must not share its block with `a` or `b`.
 */
export function mat4MulAt(
  out: Float64Array,
  oo: number,
  a: ArrayLike<number>,
  ao: number,
  b: ArrayLike<number>,
  bo: number,
): Float64Array {
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + c * 4];
    const b1 = b[bo + c * 4 + 1];
    const b2 = b[bo + c * 4 + 2];
    const b3 = b[bo + c * 4 + 3];
    for (let r = 0; r < 4; r++) {
      out[oo + c * 4 + r] = a[ao + r] * b0 + a[ao + 4 + r] * b1 + a[ao + 8 + r] * b2 + a[ao + 12 + r] * b3;
    }
  }
  return out;
}

/** Copies one 4 x 4 block. */
export function mat4CopyAt(out: Float64Array, oo: number, a: ArrayLike<number>, ao: number): Float64Array {
  for (let i = 0; i < 16; i++) out[oo + i] = a[ao + i];
  return out;
}

/** The 4 x 4 identity written at `out[oo..]`. */
export function mat4IdentityAt(out: Float64Array, oo = 0): Float64Array {
  for (let i = 0; i < 16; i++) out[oo + i] = i % 5 === 0 ? 1 : 0;
  return out;
}

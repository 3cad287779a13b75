import type { Out } from './types.js';

// Blender's thresholds (vec_roll_to_mat3_normalized): above SAFE, 1 + y is precise enough;
// below it the bone is close to -Y and 1 + y is recomputed from x and z; inside CRITICAL
// (distance from the -Y axis in the XZ plane) the bone counts as exactly -Y.
const SAFE_THRESHOLD = 6.1e-3;
const CRITICAL_THRESHOLD = 2.5e-4;

/**
 * The rest orientation Blender gives a bone pointing along `dir` with edit-bone `roll`
 * (radians), exactly as Blender's `vec_roll_to_mat3`: the shortest rotation taking +Y to
 * `dir`, then a rotation by `roll` about `dir`. Bones within 2.5e-4 of -Y (in the XZ
 * plane) use Blender's fallback, a half turn about Z. The bone's Y axis (column 1) is `dir`
 * normalised in float32 as Blender does (so to about 1e-7; the matrix is orthonormal to about
 * 1e-7 too, and to about 1e-5 within 0.1 rad of -Y, where Blender's own float32 `1 + y` is
 * that coarse). Throws a `RangeError` for a zero or non-finite `dir`.
 *
 * ```ts
 * vecRollToMat3(r, [0, 0, 1], 0); // a vertical bone
 * ```
 */
export function vecRollToMat3<T extends Out>(out: T, dir: ArrayLike<number>, roll: number): T {
  const dx = dir[0]!,
    dy = dir[1]!,
    dz = dir[2]!;
  const len = Math.sqrt(dx * dx + dy * dy + dz * dz);
  if (!(len > 0) || !Number.isFinite(len) || !Number.isFinite(roll)) {
    throw new RangeError(
      `vecRollToMat3: bone direction [${dx}, ${dy}, ${dz}] with roll ${roll} has no rest matrix.`,
    );
  }
  // Blender normalises the direction and forms 1 + y in float32; near -Y that rounding (not
  // the formula) dominates the result, so it is reproduced here. The rest is float64.
  const f = Math.fround;
  const fx = f(dx),
    fy = f(dy),
    fz = f(dz);
  const fl = f(Math.sqrt(f(f(f(fx * fx) + f(fy * fy)) + f(fz * fz))));
  const inv = f(1 / fl);
  const x = f(fx * inv),
    y = f(fy * inv),
    z = f(fz * inv);
  let theta = f(1 + y);
  const thetaAlt = f(f(x * x) + f(z * z));
  // b: the rotation taking +Y to (x, y, z), column-major.
  let b0: number,
    b1: number,
    b2: number,
    b3: number,
    b4: number,
    b5: number,
    b6: number,
    b7: number,
    b8: number;
  if (theta > SAFE_THRESHOLD || thetaAlt > CRITICAL_THRESHOLD * CRITICAL_THRESHOLD) {
    if (theta <= SAFE_THRESHOLD) theta = thetaAlt * 0.5 + thetaAlt * thetaAlt * 0.125;
    b0 = 1 - (x * x) / theta;
    b1 = -x;
    b2 = (-x * z) / theta;
    b3 = x;
    b4 = y;
    b5 = z;
    b6 = b2;
    b7 = -z;
    b8 = 1 - (z * z) / theta;
  } else {
    b0 = -1;
    b1 = 0;
    b2 = 0;
    b3 = 0;
    b4 = -1;
    b5 = 0;
    b6 = 0;
    b7 = 0;
    b8 = 1;
  }
  // r: rotation by roll about (x, y, z) (Rodrigues), column-major.
  const c = Math.cos(roll),
    s = Math.sin(roll),
    t = 1 - c;
  const r0 = t * x * x + c,
    r1 = t * x * y + s * z,
    r2 = t * x * z - s * y;
  const r3 = t * x * y - s * z,
    r4 = t * y * y + c,
    r5 = t * y * z + s * x;
  const r6 = t * x * z + s * y,
    r7 = t * y * z - s * x,
    r8 = t * z * z + c;
  // out = r * b
  out[0] = r0 * b0 + r3 * b1 + r6 * b2;
  out[1] = r1 * b0 + r4 * b1 + r7 * b2;
  out[2] = r2 * b0 + r5 * b1 + r8 * b2;
  out[3] = r0 * b3 + r3 * b4 + r6 * b5;
  out[4] = r1 * b3 + r4 * b4 + r7 * b5;
  out[5] = r2 * b3 + r5 * b4 + r8 * b5;
  out[6] = r0 * b6 + r3 * b7 + r6 * b8;
  out[7] = r1 * b6 + r4 * b7 + r7 * b8;
  out[8] = r2 * b6 + r5 * b7 + r8 * b8;
  return out;
}

const rot = new Float64Array(9);

/**
 * Blender's `bone.matrix_local` (armature space, column-major 4 x 4) of a bone from its
 * armature-space `head`, `tail` and edit-bone `roll` (radians), for an armature object with
 * identity transform: rotation {@link vecRollToMat3}`(tail - head, roll)`, translation `head`.
 * Throws a `RangeError` when head and tail coincide.
 *
 * ```ts
 * boneRestMatrix(m, bone.head, bone.tail, bone.roll); // equals mat4FromRows(bone.matrix_local)
 * ```
 */
export function boneRestMatrix<T extends Out>(
  out: T,
  head: ArrayLike<number>,
  tail: ArrayLike<number>,
  roll: number,
): T {
  const hx = head[0]!,
    hy = head[1]!,
    hz = head[2]!;
  const dx = tail[0]! - hx,
    dy = tail[1]! - hy,
    dz = tail[2]! - hz;
  if (dx === 0 && dy === 0 && dz === 0) {
    throw new RangeError(
      `boneRestMatrix: head and tail are both [${hx}, ${hy}, ${hz}]; a bone needs a length.`,
    );
  }
  rot[0] = dx;
  rot[1] = dy;
  rot[2] = dz;
  vecRollToMat3(rot, rot, roll);
  for (let col = 0; col < 3; col++) {
    out[col * 4] = rot[col * 3]!;
    out[col * 4 + 1] = rot[col * 3 + 1]!;
    out[col * 4 + 2] = rot[col * 3 + 2]!;
    out[col * 4 + 3] = 0;
  }
  out[12] = hx;
  out[13] = hy;
  out[14] = hz;
  out[15] = 1;
  return out;
}

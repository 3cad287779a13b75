import { mat3Invert, mat3Multiply, mat3Transpose, mat4Invert, rigidFit } from '@mocap/anim-loop';
import { FileError } from '@mocap/layout';
import type { RigModel } from './rig-model.js';
import type { SkeletonClip } from './skeleton-clip.js';

/**
 * A {@link SkeletonClip} placed on a rig: which clip node drives each rig bone, and the
 * similarity (scale, rotation, offset) that carries the clip's bind pose onto the rig's rest
 * pose (glTF's Y-up axes, the file's units, and prep's scale, turn and centring, all at once).
 */
export interface ClipOnRig {
  clip: SkeletonClip;
  model: RigModel;
  /** Clip node per rig bone. */
  node: Int32Array;
  /** Rig metres per clip unit. */
  scale: number;
  /** Rotation from the clip's world to the rig's (column-major 3 x 3). */
  rotation: Float64Array;
  /** Offset after scale and rotation, rig metres. */
  offset: Float64Array;
  /** RMS distance between the rig's rest heads and the clip's bind heads carried onto them, metres. */
  residual: number;
  /** Inverse bind matrix per rig bone (B x 16). */
  bindInverse: Float64Array;
}

/** Share of the rig's size the bind heads may miss the rest heads by before the skeletons count as different. */
const MAX_RESIDUAL = 0.02;

/**
 * Matches a clip to a rig by bone name and fits the similarity between the clip's bind heads
 * and the rig's rest heads. Throws a `FileError` naming the rig's bones that the clip lacks,
 * or, when every name matches, the bones whose heads sit furthest from the rig's.
 *
 * ```ts
 * const placed = clipOnRig(model, await readGltfClip('Fox.glb', 'Walk'));
 * ```
 */
export function clipOnRig(model: RigModel, clip: SkeletonClip, op = 'motion'): ClipOnRig {
  const index = new Map(clip.names.map((n, i) => [n, i]));
  const missing = model.bones.filter((b) => !index.has(b));
  if (missing.length > 0) {
    const shown = clip.names.slice(0, 40).join(', ') + (clip.names.length > 40 ? ', ...' : '');
    throw new FileError(
      `${op}: ${clip.source}: the creature's bones ${missing.map((b) => `"${b}"`).join(', ')} are not joints of the motion (${missing.length} of ${model.bones.length} bones; the motion's joints: ${shown}).`,
      clip.source,
      'bones',
    );
  }
  const b = model.bones.length;
  const node = Int32Array.from(model.bones, (name) => index.get(name) as number);
  const src = new Float64Array(b * 3);
  const dst = Float64Array.from(model.restHead);
  const cs = [0, 0, 0];
  const cd = [0, 0, 0];
  for (let i = 0; i < b; i++) {
    for (let c = 0; c < 3; c++) {
      src[i * 3 + c] = clip.bind[(node[i] as number) * 16 + 12 + c] as number;
      cs[c] = (cs[c] as number) + (src[i * 3 + c] as number) / b;
      cd[c] = (cd[c] as number) + (dst[i * 3 + c] as number) / b;
    }
  }
  let ss = 0;
  let sd = 0;
  for (let i = 0; i < b; i++) {
    for (let c = 0; c < 3; c++) {
      ss += ((src[i * 3 + c] as number) - (cs[c] as number)) ** 2;
      sd += ((dst[i * 3 + c] as number) - (cd[c] as number)) ** 2;
    }
  }
  // The scale of a similarity between two copies of one shape is the ratio of their spreads.
  const scale = ss > 0 ? Math.sqrt(sd / ss) : 1;
  for (let i = 0; i < src.length; i++) src[i] = (src[i] as number) * scale;
  const rotation = new Float64Array(9);
  const offset = new Float64Array(3);
  const residual = b >= 2 ? rigidFit(rotation, offset, src, dst) : 0;
  if (b < 2) {
    rotation.set([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    for (let c = 0; c < 3; c++) offset[c] = (dst[c] as number) - (src[c] as number);
  }
  const size = Math.sqrt(sd / b) || 1;
  if (residual > MAX_RESIDUAL * size) {
    const err = model.bones.map((name, i) => {
      let d2 = 0;
      for (let r = 0; r < 3; r++) {
        let p = offset[r] as number;
        for (let c = 0; c < 3; c++) p += (rotation[c * 3 + r] as number) * (src[i * 3 + c] as number);
        d2 += (p - (dst[i * 3 + r] as number)) ** 2;
      }
      return { name, d: Math.sqrt(d2) };
    });
    err.sort((x, y) => y.d - x.d);
    const worst = err.slice(0, 5).map((e) => `"${e.name}" ${(e.d * 100).toFixed(1)} cm`);
    throw new FileError(
      `${op}: ${clip.source}: the motion's skeleton is not the creature's: after the best scale, turn and shift its bind-pose heads miss the rig's by ${(residual * 100).toFixed(1)} cm RMS (over ${(MAX_RESIDUAL * 100).toFixed(0)}% of the rig's ${(size * 100).toFixed(1)} cm size); furthest: ${worst.join(', ')}.`,
      clip.source,
      'bones',
    );
  }
  const bindInverse = new Float64Array(b * 16);
  for (let i = 0; i < b; i++) {
    const n = node[i] as number;
    mat4Invert(bindInverse.subarray(i * 16, i * 16 + 16), clip.bind.subarray(n * 16, n * 16 + 16));
  }
  return { clip, model, node, scale, rotation, offset, residual, bindInverse };
}

const scratch = {
  w: new Float64Array(9),
  m: new Float64Array(9),
  mt: new Float64Array(9),
  a: new Float64Array(9),
};

/**
 * The rig's posed bone rotations in armature space (`outRot`, B x 9) and the root's posed head
 * (`outHead`, 3) for clip world matrices `world` (N x 16, from `sampleClipWorld`): each bone turns
 * from its rest as its clip node turns from its bind pose, seen in the rig's frame.
 */
export function posedRig(
  placed: ClipOnRig,
  world: Float64Array,
  outRot: Float64Array,
  outHead: Float64Array,
): void {
  const { model, node, bindInverse, rotation: m } = placed;
  const s = scratch;
  mat3Transpose(s.mt, m);
  for (let i = 0; i < model.bones.length; i++) {
    const n = node[i] as number;
    // Delta = world * bind^-1 (its 3 x 3; columns normalised, dropping any uniform scale).
    for (let c = 0; c < 3; c++) {
      for (let r = 0; r < 3; r++) {
        let v = 0;
        for (let k = 0; k < 4; k++)
          v += (world[n * 16 + k * 4 + r] as number) * (bindInverse[i * 16 + c * 4 + k] as number);
        s.w[c * 3 + r] = v;
      }
      const len = Math.hypot(s.w[c * 3] as number, s.w[c * 3 + 1] as number, s.w[c * 3 + 2] as number) || 1;
      for (let r = 0; r < 3; r++) s.w[c * 3 + r] = (s.w[c * 3 + r] as number) / len;
    }
    mat3Multiply(s.a, m, s.w);
    mat3Multiply(s.w, s.a, s.mt);
    mat3Multiply(s.a, s.w, model.restRot.subarray(i * 9, i * 9 + 9));
    outRot.set(s.a, i * 9);
  }
  const n0 = node[0] as number;
  for (let r = 0; r < 3; r++) {
    let v = placed.offset[r] as number;
    for (let c = 0; c < 3; c++)
      v += (m[c * 3 + r] as number) * placed.scale * (world[n0 * 16 + 12 + c] as number);
    outHead[r] = v;
  }
}

/**
 * Bone `i`'s local rotation (its pose-bone rotation, before Euler angles) that puts it at posed
 * rotation `rot[i]` under its parent's posed `rot[parent]`: `(rot[parent] * localRot[i])^-1 * rot[i]`.
 */
export function localRotation(
  out: Float64Array,
  model: RigModel,
  rot: Float64Array,
  i: number,
): Float64Array {
  const p = model.parent[i] as number;
  mat3Multiply(scratch.m, rot.subarray(p * 9, p * 9 + 9), model.localRot.subarray(i * 9, i * 9 + 9));
  mat3Invert(scratch.mt, scratch.m);
  return mat3Multiply(out, scratch.mt, rot.subarray(i * 9, i * 9 + 9));
}

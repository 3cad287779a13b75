import { quatConjugate, quatMultiply } from '@mocap/anim-loop';
import { copyJointPose, type JointPose } from './joint-pose.js';
import { jointWorldMatrices } from './joint-world-matrices.js';
import { restJointPose } from './rest-joint-pose.js';
import type { SkinnedMesh } from './skinned-mesh.js';

/**
 * The pose the refinement moves: the skin's joint transforms, a zoom (the whole rig scaled about
 * {@link SkinnedMesh.toWorld}'s origin: a clip that zooms shows the creature larger, not posed
 * differently; 1 unless the objective follows a zoom) and a world translation (metres) added after.
 */
export interface RefinePose {
  pose: JointPose;
  translation: Float64Array;
  zoom: number;
}

/** A refine pose at the mesh's rest pose, no translation and no zoom. */
export function restRefinePose(mesh: SkinnedMesh): RefinePose {
  return { pose: restJointPose(mesh), translation: new Float64Array(3), zoom: 1 };
}

/** Copies `src` into `out` and returns `out`. */
export function copyRefinePose(out: RefinePose, src: RefinePose): RefinePose {
  copyJointPose(out.pose, src.pose);
  out.translation.set(src.translation);
  out.zoom = src.zoom;
  return out;
}

/** A new pose holding `src`'s values (its own arrays). */
export function cloneRefinePose(src: RefinePose): RefinePose {
  return {
    pose: {
      translation: Float64Array.from(src.pose.translation),
      rotation: Float64Array.from(src.pose.rotation),
      scale: Float64Array.from(src.pose.scale),
    },
    translation: Float64Array.from(src.translation),
    zoom: src.zoom,
  };
}

/**
 * The root matrix a pose draws the skin through: `toWorld` with its linear part scaled by the
 * pose's zoom (about toWorld's origin), then shifted by the pose's translation. Writes `out`.
 */
export function poseRoot(out: Float64Array, toWorld: Float64Array, state: RefinePose): Float64Array {
  for (let i = 0; i < 16; i++) out[i] = toWorld[i];
  for (let c = 0; c < 3; c++) {
    for (let r = 0; r < 3; r++) out[4 * c + r] *= state.zoom;
    out[12 + c] += state.translation[c];
  }
  return out;
}

const turnScratch = new Float64Array(4);

/**
 * The constant-velocity prediction of the pose after `prev` and `last` (two consecutive frames'):
 * the translation `2 last - prev`, each joint's rotation `last * (prev^-1 last)` (the same turn
 * again, in the joint's own frame; the shorter way); scales and local translations as `last`.
 * Writes `out` (may be `last`, not `prev`) and returns it.
 *
 * ```ts
 * predictRefinePose(state, prevPose, lastPose); // the start of the next frame's fit
 * ```
 */
export function predictRefinePose(out: RefinePose, prev: RefinePose, last: RefinePose): RefinePose {
  if (out !== last) copyRefinePose(out, last);
  for (let k = 0; k < 3; k++) out.translation[k] = 2 * last.translation[k] - prev.translation[k];
  const a = prev.pose.rotation;
  const b = last.pose.rotation;
  const q = out.pose.rotation;
  const d = turnScratch;
  for (let o = 0; o < q.length; o += 4) {
    const bo = b.subarray(o, o + 4);
    // d = conj(a) * b, the turn from prev to last in prev's frame
    quatMultiply(d, quatConjugate(d, a.subarray(o, o + 4)), bo);
    // normalised (the poses' quaternions drift off unit length by rounding: unnormalised, the
    // prediction's norm would compound frame after frame) and signed to the shorter way
    const sg = (d[3] < 0 ? -1 : 1) / Math.hypot(d[0], d[1], d[2], d[3]);
    for (let c = 0; c < 4; c++) d[c] = sg * d[c];
    // q = b * d (may be b itself: quatMultiply reads both before it writes)
    quatMultiply(q.subarray(o, o + 4), bo, d);
  }
  return out;
}

/**
 * Applies a parameter step: `delta[0..2]` adds to the translation; `delta[3 + 3k ..]` rotates free
 * joint `joints[k]` in its own frame, `q <- q * exp(delta / 2)` (a rotation vector in radians);
 * a `delta` one longer (an objective that follows a zoom) ends with the zoom's log step,
 * `zoom <- zoom * exp(delta)`. Writes `out` (may be `state`) and returns it.
 */
export function applyPoseStep(
  out: RefinePose,
  state: RefinePose,
  joints: Int32Array,
  delta: ArrayLike<number>,
  scale = 1,
): RefinePose {
  if (out !== state) copyRefinePose(out, state);
  for (let k = 0; k < 3; k++) out.translation[k] += scale * delta[k];
  const q = out.pose.rotation;
  for (let k = 0; k < joints.length; k++) {
    const o = 4 * joints[k];
    const rx = scale * delta[3 + 3 * k];
    const ry = scale * delta[4 + 3 * k];
    const rz = scale * delta[5 + 3 * k];
    const th = Math.hypot(rx, ry, rz);
    const s = th > 1e-12 ? Math.sin(th / 2) / th : 0.5;
    const bx = rx * s;
    const by = ry * s;
    const bz = rz * s;
    const bw = Math.cos(th / 2);
    const ax = q[o];
    const ay = q[o + 1];
    const az = q[o + 2];
    const aw = q[o + 3];
    q[o] = aw * bx + ax * bw + ay * bz - az * by;
    q[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
    q[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
    q[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
  }
  const z = 3 + 3 * joints.length;
  if (delta.length > z) out.zoom *= Math.exp(scale * delta[z]);
  return out;
}

/**
 * World positions (metres, layout world) of every joint's origin at `state`: J x 3 into `out`.
 * These are what a detector writes out as refined joints (project them with `projectPoints`).
 *
 * ```ts
 * const joints = jointPositions(new Float64Array(mesh.jointNames.length * 3), mesh, state);
 * ```
 */
export function jointPositions(out: Float64Array, mesh: SkinnedMesh, state: RefinePose): Float64Array {
  const nj = mesh.jointNames.length;
  if (out.length < nj * 3)
    throw new RangeError(`jointPositions: expected an output of ${nj * 3} values, got ${out.length}.`);
  const root = poseRoot(new Float64Array(16), mesh.toWorld, state);
  const world = jointWorldMatrices(new Float64Array(nj * 16), mesh, state.pose, root);
  for (let j = 0; j < nj; j++) {
    out[3 * j] = world[16 * j + 12];
    out[3 * j + 1] = world[16 * j + 13];
    out[3 * j + 2] = world[16 * j + 14];
  }
  return out;
}

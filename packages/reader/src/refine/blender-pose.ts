import { eulerFromQuat, quatConjugate, quatFromEuler, quatFromMat3, quatMultiply } from '@mocap/anim-loop';
import type { JointPose } from './joint-pose.js';

const qa = new Float64Array(4);
const qb = new Float64Array(4);
const qc = new Float64Array(4);
const ev = new Float64Array(3);

/**
 * Poses the joints of a glTF that Blender's exporter wrote from an armature (every bone a node
 * whose rest transform is `parent_rest^-1 * rest`, the root's with the Y-up change in front)
 * with Blender pose-bone rotations: `euler[3j..3j+2]` is joint j's `pose_bone.rotation_euler`
 * in mode XYZ (R = Rz Ry Rx), applied in the bone's rest frame, so the node's rotation becomes
 * `q_rest * q(euler)`. Joints listed in `skip` keep their rest rotation. Writes `out` (rest
 * translations and scales copied) and returns it.
 *
 * ```ts
 * jointPoseFromBlenderEuler(pose, mesh.rest, euler);
 * ```
 */
export function jointPoseFromBlenderEuler(
  out: JointPose,
  rest: JointPose,
  euler: ArrayLike<number>,
  skip: ReadonlySet<number> = new Set(),
): JointPose {
  out.translation.set(rest.translation);
  out.scale.set(rest.scale);
  const n = rest.rotation.length / 4;
  for (let j = 0; j < n; j++) {
    qa.set(rest.rotation.subarray(4 * j, 4 * j + 4));
    if (skip.has(j)) {
      out.rotation.set(qa, 4 * j);
      continue;
    }
    ev[0] = euler[3 * j];
    ev[1] = euler[3 * j + 1];
    ev[2] = euler[3 * j + 2];
    quatFromEuler(qb, ev, 'XYZ');
    quatMultiply(qc, qa, qb);
    out.rotation.set(qc, 4 * j);
  }
  return out;
}

/**
 * The inverse of {@link jointPoseFromBlenderEuler}: each joint's Blender pose-bone rotation
 * (Euler XYZ, radians, J x 3) from a refined pose, `euler(q_rest^-1 * q)`; `prefer` (J x 3, e.g.
 * the previous frame's angles) picks the compatible solution nearest it, as Blender's
 * `to_euler(order, compat)` does. Writes `out` and returns it.
 */
export function blenderEulerFromJointPose(
  out: Float64Array,
  rest: JointPose,
  pose: JointPose,
  prefer?: ArrayLike<number>,
): Float64Array {
  const n = rest.rotation.length / 4;
  const pv = new Float64Array(3);
  for (let j = 0; j < n; j++) {
    // the inverse of a stored (float32, not exactly unit) rest rotation: conjugate / |q|^2
    quatConjugate(qa, rest.rotation.subarray(4 * j, 4 * j + 4));
    const n2 = qa[0] * qa[0] + qa[1] * qa[1] + qa[2] * qa[2] + qa[3] * qa[3];
    for (let c = 0; c < 4; c++) qa[c] /= n2;
    quatMultiply(qc, qa, pose.rotation.subarray(4 * j, 4 * j + 4));
    if (prefer) {
      pv[0] = prefer[3 * j];
      pv[1] = prefer[3 * j + 1];
      pv[2] = prefer[3 * j + 2];
    }
    eulerFromQuat(ev, qc, 'XYZ', prefer ? pv : undefined);
    out[3 * j] = ev[0];
    out[3 * j + 1] = ev[1];
    out[3 * j + 2] = ev[2];
  }
  return out;
}

/**
 * The root's motion in motion.json's terms for a refined pose: `root_quat` (W, X, Y, Z) with
 * posed orientation = R(root_quat) * rest orientation of joint `root`, and `trans`, the
 * displacement of its origin from rest, both in the layout world (= armature space for an
 * armature with identity transform). World matrices from {@link jointWorldMatrices} with the
 * same root matrix (e.g. `mesh.toWorld` shifted by the pose's translation) for both poses.
 */
export function blenderRootMotion(
  restWorld: Float64Array,
  posedWorld: Float64Array,
  root: number,
): { rootQuatWxyz: [number, number, number, number]; trans: [number, number, number] } {
  const o = 16 * root;
  const a = new Float64Array(9);
  const b = new Float64Array(9);
  for (let c = 0; c < 3; c++) {
    const na = Math.hypot(restWorld[o + 4 * c], restWorld[o + 4 * c + 1], restWorld[o + 4 * c + 2]) || 1;
    const nb = Math.hypot(posedWorld[o + 4 * c], posedWorld[o + 4 * c + 1], posedWorld[o + 4 * c + 2]) || 1;
    for (let r = 0; r < 3; r++) {
      a[3 * c + r] = restWorld[o + 4 * c + r] / na;
      b[3 * c + r] = posedWorld[o + 4 * c + r] / nb;
    }
  }
  // R = B * A^T (column-major): R[c][r] = sum_k B[k][r] * A[k][c]
  const m = new Float64Array(9);
  for (let c = 0; c < 3; c++) {
    for (let r = 0; r < 3; r++) {
      let s = 0;
      for (let k = 0; k < 3; k++) s += b[3 * k + r] * a[3 * k + c];
      m[3 * c + r] = s;
    }
  }
  const q = quatFromMat3(new Float64Array(4), m);
  return {
    rootQuatWxyz: [q[3], q[0], q[1], q[2]],
    trans: [
      posedWorld[o + 12] - restWorld[o + 12],
      posedWorld[o + 13] - restWorld[o + 13],
      posedWorld[o + 14] - restWorld[o + 14],
    ],
  };
}

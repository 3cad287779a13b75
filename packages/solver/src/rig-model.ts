import { boneRestMatrix } from '@mocap/anim-loop';
import { FileError, limitsFor, type RigInfo, type RigJson } from '@mocap/layout';

/** One keypoint of a {@link RigModel}: a joint that is the head or tail of a bone. */
export interface RigKeypoint {
  name: string;
  /** Index of the bone in {@link RigModel.bones}. */
  bone: number;
  end: 'head' | 'tail';
}

/**
 * A rig ready for forward kinematics: bones parents first (index 0 is the root), rest
 * orientations and heads in armature space, lengths, limits (radians) and keypoints.
 * Matrices are column-major 3 x 3 (`m[col * 3 + row]`), flat over bones.
 */
export interface RigModel {
  bones: string[];
  /** Parent index per bone, -1 for the root. */
  parent: Int32Array;
  /** Rest rotation per bone (B x 9, column-major): the rotation of Blender's `matrix_local`. */
  restRot: Float64Array;
  /** Rest head per bone (B x 3), armature space, metres. */
  restHead: Float64Array;
  /** Bone length per bone, metres. */
  length: Float64Array;
  /** Parent-relative rest rotation per bone, `restRot[parent]^T * restRot[b]` (B x 9). */
  localRot: Float64Array;
  /** Parent-relative rest offset per bone, `restRot[parent]^T * (head[b] - head[parent])` (B x 3). */
  localOffset: Float64Array;
  /** Euler limits per bone (B x 6: xmin, xmax, ymin, ymax, zmin, zmax), radians; the root's are unused. */
  limits: Float64Array;
  keypoints: RigKeypoint[];
  /** Per keypoint, its bone index (K) and whether it is the bone's tail (1) or head (0), for hot loops. */
  keyBone: Int32Array;
  keyTail: Uint8Array;
}

const DEG = Math.PI / 180;

/** Inverse of the column-major 3 x 3 at `m[o..o+8]` into `out` (Blender inverts, never transposes). */
function invert3(out: Float64Array, m: Float64Array, o: number): void {
  const a = m[o] as number,
    b = m[o + 1] as number,
    c = m[o + 2] as number;
  const d = m[o + 3] as number,
    e = m[o + 4] as number,
    f = m[o + 5] as number;
  const g = m[o + 6] as number,
    h = m[o + 7] as number,
    i = m[o + 8] as number;
  const A = e * i - f * h,
    B = f * g - d * i,
    C = d * h - e * g;
  const det = a * A + d * (h * c - i * b) + g * (b * f - c * e);
  out[0] = A / det;
  out[1] = (h * c - i * b) / det;
  out[2] = (b * f - c * e) / det;
  out[3] = B / det;
  out[4] = (a * i - g * c) / det;
  out[5] = (d * c - a * f) / det;
  out[6] = C / det;
  out[7] = (g * b - a * h) / det;
  out[8] = (a * e - d * b) / det;
}

/**
 * Parent-relative rest frames: `inverse(rest[parent]) * rest[b]` and the head offset in the
 * parent's rest frame, as Blender's pose evaluation uses them.
 */
function localFrames(
  parent: Int32Array,
  restRot: Float64Array,
  restHead: Float64Array,
): { localRot: Float64Array; localOffset: Float64Array } {
  const b = parent.length;
  const localRot = new Float64Array(b * 9);
  const localOffset = new Float64Array(b * 3);
  const inv = new Float64Array(9);
  for (let i = 0; i < b; i++) {
    const p = parent[i] as number;
    if (p < 0) {
      localRot.set(restRot.subarray(i * 9, i * 9 + 9), i * 9);
      continue;
    }
    invert3(inv, restRot, p * 9);
    for (let c = 0; c < 3; c++) {
      for (let r = 0; r < 3; r++) {
        let s = 0;
        for (let k = 0; k < 3; k++) s += (inv[k * 3 + r] as number) * (restRot[i * 9 + c * 3 + k] as number);
        localRot[i * 9 + c * 3 + r] = s;
      }
    }
    const dx = (restHead[i * 3] as number) - (restHead[p * 3] as number);
    const dy = (restHead[i * 3 + 1] as number) - (restHead[p * 3 + 1] as number);
    const dz = (restHead[i * 3 + 2] as number) - (restHead[p * 3 + 2] as number);
    for (let r = 0; r < 3; r++) {
      localOffset[i * 3 + r] =
        (inv[r] as number) * dx + (inv[3 + r] as number) * dy + (inv[6 + r] as number) * dz;
    }
  }
  return { localRot, localOffset };
}

/**
 * The same rig with every rest rotation made exactly orthonormal (Gram-Schmidt from the bone's
 * Y axis). Blender's rest matrices are orthonormal only to float precision (1e-7, and 5e-5 for
 * bones near -Y); the fit's analytic Jacobian assumes rotations, so it runs on this model and
 * the result is posed on the exact one (the two differ by micrometres).
 */
export function orthonormalRigModel(model: RigModel): RigModel {
  const restRot = Float64Array.from(model.restRot);
  for (let i = 0; i < model.bones.length; i++) {
    const o = i * 9;
    const y = [restRot[o + 3] as number, restRot[o + 4] as number, restRot[o + 5] as number];
    let n = Math.hypot(y[0]!, y[1]!, y[2]!);
    const Y = y.map((v) => v / n);
    const x = [restRot[o] as number, restRot[o + 1] as number, restRot[o + 2] as number];
    const d = x[0]! * Y[0]! + x[1]! * Y[1]! + x[2]! * Y[2]!;
    const X0 = x.map((v, k) => v - d * Y[k]!);
    n = Math.hypot(X0[0]!, X0[1]!, X0[2]!);
    const X = X0.map((v) => v / n);
    const Z = [X[1]! * Y[2]! - X[2]! * Y[1]!, X[2]! * Y[0]! - X[0]! * Y[2]!, X[0]! * Y[1]! - X[1]! * Y[0]!];
    restRot.set([...X, ...Y, ...Z], o);
  }
  const { localRot, localOffset } = localFrames(model.parent, restRot, model.restHead);
  return rigModel({ ...model, restRot, localRot, localOffset });
}

/**
 * A {@link RigModel} of these fields, built by one object literal, so that the rig as read and
 * its orthonormal copy share one object shape (FK, called with both, stays monomorphic).
 */
function rigModel(m: RigModel): RigModel {
  return {
    bones: m.bones,
    parent: m.parent,
    restRot: m.restRot,
    restHead: m.restHead,
    length: m.length,
    localRot: m.localRot,
    localOffset: m.localOffset,
    limits: m.limits,
    keypoints: m.keypoints,
    keyBone: m.keyBone,
    keyTail: m.keyTail,
  };
}

function finish(
  file: string,
  names: string[],
  parentNames: (string | null)[],
  restRot: Float64Array,
  restHead: Float64Array,
  length: Float64Array,
  limits: Float64Array,
  keypoints: RigKeypoint[],
): RigModel {
  const b = names.length;
  const index = new Map(names.map((n, i) => [n, i]));
  const parent = new Int32Array(b);
  parentNames.forEach((p, i) => {
    if (p === null) {
      if (i !== 0) {
        throw new FileError(
          `rig: ${file}: bones[${i}].parent: null, but only the first bone may be the root.`,
          file,
          `bones[${i}].parent`,
        );
      }
      parent[i] = -1;
      return;
    }
    const pi = index.get(p);
    if (pi === undefined || pi >= i) {
      throw new FileError(
        `rig: ${file}: bones[${i}].parent: "${p}" is not a bone listed before "${names[i]}".`,
        file,
        `bones[${i}].parent`,
      );
    }
    parent[i] = pi;
  });
  if (parent[0] !== -1) {
    throw new FileError(
      `rig: ${file}: bones[0].parent: the first bone must be the root.`,
      file,
      'bones[0].parent',
    );
  }
  const { localRot, localOffset } = localFrames(parent, restRot, restHead);
  return rigModel({
    bones: names,
    parent,
    restRot,
    restHead,
    length,
    localRot,
    localOffset,
    limits,
    keypoints,
    keyBone: Int32Array.from(keypoints, (k) => k.bone),
    keyTail: Uint8Array.from(keypoints, (k) => (k.end === 'tail' ? 1 : 0)),
  });
}

function limitsRad(
  out: Float64Array,
  i: number,
  deg: readonly (readonly [number, number])[] | undefined,
): void {
  const l = deg ?? [
    [-180, 180],
    [-180, 180],
    [-180, 180],
  ];
  for (let a = 0; a < 3; a++) {
    out[i * 6 + 2 * a] = (l[a]?.[0] ?? 0) * DEG;
    out[i * 6 + 2 * a + 1] = (l[a]?.[1] ?? 0) * DEG;
  }
}

/**
 * The rig model of a validated `rig_info.json` (Blender's own rest matrices, `matrix_local`).
 * The root must be the first bone. `file` names the file in errors.
 *
 * ```ts
 * const model = rigModelFromRigInfo(await readJsonFile('solve', 'rig_info.json', RigInfo));
 * ```
 */
export function rigModelFromRigInfo(info: RigInfo, file = 'rig_info.json'): RigModel {
  const b = info.bones.length;
  const restRot = new Float64Array(b * 9);
  const restHead = new Float64Array(b * 3);
  const length = new Float64Array(b);
  const limits = new Float64Array(b * 6);
  info.bones.forEach((bone, i) => {
    const m = bone.matrix_local;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) restRot[i * 9 + c * 3 + r] = m[r]?.[c] as number;
      restHead[i * 3 + r] = m[r]?.[3] as number;
    }
    length[i] = bone.length;
    limitsRad(limits, i, bone.limits_deg);
  });
  if (info.bones[0]?.name !== info.root) {
    throw new FileError(
      `rig: ${file}: root: "${info.root}" must be the first bone (bones[0] is "${info.bones[0]?.name}").`,
      file,
      'root',
    );
  }
  const names = info.bones.map((x) => x.name);
  const index = new Map(names.map((n, i) => [n, i]));
  const keypoints = info.keypoints.map((k, i) => {
    const bone = index.get(k.bone);
    if (bone === undefined) {
      throw new FileError(
        `rig: ${file}: keypoints[${i}].bone: "${k.bone}" is not a bone.`,
        file,
        `keypoints[${i}].bone`,
      );
    }
    return { name: k.name, bone, end: k.end };
  });
  return finish(
    file,
    names,
    info.bones.map((x) => x.parent),
    restRot,
    restHead,
    length,
    limits,
    keypoints,
  );
}

/**
 * The keypoints of a rig.json: every joint, as the tail of the first bone ending there, else
 * the head of the first bone starting there (the same rule build_rig writes to rig_info.json).
 */
export function rigJsonKeypoints(rig: RigJson): { name: string; bone: string; end: 'head' | 'tail' }[] {
  const out: { name: string; bone: string; end: 'head' | 'tail' }[] = [];
  for (const joint of Object.keys(rig.joints)) {
    const tail = rig.bones.find((b) => b[2] === joint);
    const head = rig.bones.find((b) => b[1] === joint);
    if (tail) out.push({ name: joint, bone: tail[0], end: 'tail' });
    else if (head) out.push({ name: joint, bone: head[0], end: 'head' });
  }
  return out;
}

/**
 * The rig model of a validated `rig.json` alone, its rest matrices rebuilt as Blender builds
 * them ({@link boneRestMatrix} of head, tail and roll), so the solver runs before Blender has.
 * Bones without limits get +-180 degrees.
 *
 * ```ts
 * const model = rigModelFromRigJson(await readJsonFile('solve', 'creatures/wolf/rig.json', RigJson));
 * ```
 */
export function rigModelFromRigJson(rig: RigJson, file = 'rig.json'): RigModel {
  const b = rig.bones.length;
  const restRot = new Float64Array(b * 9);
  const restHead = new Float64Array(b * 3);
  const length = new Float64Array(b);
  const limits = new Float64Array(b * 6);
  const m4 = new Float64Array(16);
  rig.bones.forEach(([name, head, tail], i) => {
    const h = rig.joints[head] as [number, number, number];
    const t = rig.joints[tail] as [number, number, number];
    boneRestMatrix(m4, h, t, ((rig.roll_deg[name] ?? 0) * Math.PI) / 180);
    for (let c = 0; c < 3; c++)
      for (let r = 0; r < 3; r++) restRot[i * 9 + c * 3 + r] = m4[c * 4 + r] as number;
    restHead.set(h, i * 3);
    length[i] = Math.hypot(t[0] - h[0], t[1] - h[1], t[2] - h[2]);
    limitsRad(limits, i, limitsFor(rig, name));
  });
  const names = rig.bones.map((x) => x[0]);
  const index = new Map(names.map((n, i) => [n, i]));
  const keypoints = rigJsonKeypoints(rig).map((k) => ({
    name: k.name,
    bone: index.get(k.bone) as number,
    end: k.end,
  }));
  return finish(
    file,
    names,
    rig.bones.map((x) => x[3]),
    restRot,
    restHead,
    length,
    limits,
    keypoints,
  );
}

import { eulerFromMat3, mat3Multiply, mat3Transpose } from '@mocap/anim-loop';
import { clipOnRig, localRotation, posedRig } from './clip-on-rig.js';
import type { CreatureInfo } from './creature-info.js';
import type { FlatMotion } from './flat-motion.js';
import { groundedMotion } from './grounded-motion.js';
import type { RigModel } from './rig-model.js';
import { sampleClipWorld } from './sample-clip.js';
import type { SkeletonClip } from './skeleton-clip.js';

/** Options of {@link clipMotion}. */
export interface ClipMotionOptions {
  /** Frames of the motion; the clip repeats until it fills them. */
  frames: number;
  /** @default 30 */
  fps?: number;
}

/** What {@link clipMotion} returns: the motion and how the clip was fitted onto the rig. */
export interface ClipMotion {
  motion: FlatMotion;
  /** The clip as errors name it (`Fox.glb#Walk`). */
  source: string;
  /** Rig metres per clip unit. */
  scale: number;
  /** RMS miss between the rig's rest heads and the clip's bind heads after the similarity, metres. */
  residual: number;
  /** `cycle`: the clip's last pose is its first, so it repeats seamlessly; else it plays forward and back. */
  loop: 'cycle' | 'pingpong';
  /** Horizontal root travel over one cycle that was removed (the creature stays in frame), metres. */
  travel: [number, number];
  /** Clip seconds. */
  duration: number;
  /** Bones whose angles leave the rig's limits: the furthest beyond, degrees, largest first. */
  beyondLimits: { bone: string; deg: number }[];
}

/** Largest rotation between matching bones of two posed rigs (B x 9 each), radians. */
function maxAngle(a: Float64Array, b: Float64Array, bones: number): number {
  let worst = 0;
  for (let i = 0; i < bones; i++) {
    let tr = 0;
    for (let k = 0; k < 9; k++) tr += (a[i * 9 + k] as number) * (b[i * 9 + k] as number);
    worst = Math.max(worst, Math.acos(Math.max(-1, Math.min(1, (tr - 1) / 2))));
  }
  return worst;
}

/** A clip counts as a cycle when its ends differ by less than this rotation (radians) and height share. */
const CYCLE_ANGLE = (2 * Math.PI) / 180;
const CYCLE_HEIGHT = 0.01;

/**
 * A clip of the creature's own skeleton as the exam's truth: each rig bone (matched by name) turns
 * as its clip joint turns from the bind pose, the root moves with its joint (scaled and turned into
 * the rig's frame by the similarity between the clip's bind heads and the rig's rest heads), sampled
 * at `fps` from the clip's first key. A cycle (last pose = first) repeats seamlessly with its root
 * travel removed; any other clip plays forward then back. The root is centred horizontally and the
 * lowest foot put on the ground each frame ({@link groundedMotion}), as the synthetic exam's truth.
 *
 * ```ts
 * const { motion } = clipMotion(model, info, await readGltfClip('Fox.glb', 'Walk'), { frames: 120 });
 * ```
 */
export function clipMotion(
  model: RigModel,
  info: CreatureInfo,
  clip: SkeletonClip,
  options: ClipMotionOptions,
  op = 'motion',
): ClipMotion {
  const placed = clipOnRig(model, clip, op);
  const t = options.frames;
  const fps = options.fps ?? 30;
  const b = model.bones.length;
  const world = new Float64Array(clip.names.length * 16);
  const rot = new Float64Array(b * 9);
  const rotEnd = new Float64Array(b * 9);
  const head = new Float64Array(3);
  const headEnd = new Float64Array(3);
  const duration = Math.max(0, clip.end - clip.start);
  posedRig(placed, sampleClipWorld(world, clip, clip.start), rot, head);
  posedRig(placed, sampleClipWorld(world, clip, clip.end), rotEnd, headEnd);
  let size = 0;
  for (let i = 0; i < b; i++) size = Math.max(size, model.restHead[i * 3 + 2] as number);
  const cycle =
    duration > 0 &&
    maxAngle(rot, rotEnd, b) < CYCLE_ANGLE &&
    Math.abs((head[2] as number) - (headEnd[2] as number)) < CYCLE_HEIGHT * Math.max(size, 1e-9);
  const travel: [number, number] = cycle
    ? [(headEnd[0] as number) - (head[0] as number), (headEnd[1] as number) - (head[1] as number)]
    : [0, 0];
  const trans = new Float64Array(t * 3);
  const rootAngles = new Float64Array(t * 3);
  const euler = new Float64Array(t * b * 3);
  const local = new Float64Array(9);
  const rootRot = new Float64Array(9);
  const restT = new Float64Array(9);
  mat3Transpose(restT, model.restRot.subarray(0, 9));
  const lo = new Float64Array(b * 3).fill(Number.POSITIVE_INFINITY);
  const hi = new Float64Array(b * 3).fill(Number.NEGATIVE_INFINITY);
  for (let f = 0; f < t; f++) {
    const tau = f / fps;
    let u = 0;
    if (duration > 0 && cycle) u = tau % duration;
    else if (duration > 0) {
      const ph = tau % (2 * duration);
      u = ph <= duration ? ph : 2 * duration - ph;
    }
    posedRig(placed, sampleClipWorld(world, clip, clip.start + u), rot, head);
    const back = cycle ? u / duration : 0;
    for (let c = 0; c < 3; c++) {
      const moved = (head[c] as number) - (c < 2 ? back * (travel[c] as number) : 0);
      trans[f * 3 + c] = moved - (model.restHead[c] as number);
    }
    // Root: rot[0] = rootRot * restRot[0], and restRot is a rotation.
    mat3Multiply(rootRot, rot.subarray(0, 9), restT);
    const prevRoot = f > 0 ? rootAngles.subarray((f - 1) * 3, f * 3) : undefined;
    eulerFromMat3(rootAngles.subarray(f * 3, f * 3 + 3), rootRot, 'XYZ', prevRoot);
    for (let i = 1; i < b; i++) {
      const o = (f * b + i) * 3;
      const prev = f > 0 ? euler.subarray(o - b * 3, o - b * 3 + 3) : undefined;
      eulerFromMat3(euler.subarray(o, o + 3), localRotation(local, model, rot, i), 'XYZ', prev);
      for (let a = 0; a < 3; a++) {
        lo[i * 3 + a] = Math.min(lo[i * 3 + a] as number, euler[o + a] as number);
        hi[i * 3 + a] = Math.max(hi[i * 3 + a] as number, euler[o + a] as number);
      }
    }
  }
  // Centre the root horizontally on the rest position: the exam's views frame the rest pose.
  for (let c = 0; c < 2; c++) {
    let mean = 0;
    for (let f = 0; f < t; f++) mean += (trans[f * 3 + c] as number) / t;
    for (let f = 0; f < t; f++) trans[f * 3 + c] = (trans[f * 3 + c] as number) - mean;
  }
  const beyondLimits: { bone: string; deg: number }[] = [];
  for (let i = 1; i < b; i++) {
    let worst = 0;
    for (let a = 0; a < 3; a++) {
      const l = model.limits[i * 6 + 2 * a] as number;
      const h = model.limits[i * 6 + 2 * a + 1] as number;
      worst = Math.max(worst, l - (lo[i * 3 + a] as number), (hi[i * 3 + a] as number) - h);
    }
    if (worst > 1e-9) beyondLimits.push({ bone: model.bones[i] as string, deg: (worst * 180) / Math.PI });
  }
  beyondLimits.sort((x, y) => y.deg - x.deg);
  const motion = groundedMotion(model, info, { frames: t, fps, trans, rootAngles, euler });
  return {
    motion,
    source: clip.source,
    scale: placed.scale,
    residual: placed.residual,
    loop: cycle ? 'cycle' : 'pingpong',
    travel,
    duration,
    beyondLimits,
  };
}

import { quatFromMat3 } from '@mocap/anim-loop';
import type { CreatureInfo } from './creature-info.js';
import { eulerXyzToMat3, keypointsFromPose, poseFrame } from './forward-kinematics.js';
import type { RigModel } from './rig-model.js';
import { createRng, type Rng } from './rng.js';
import type { FlatMotion } from './synthetic-motion.js';

/** Options of {@link gaitMotion}. */
export interface GaitMotionOptions {
  frames: number;
  seed: number;
  /** @default 30 */
  fps?: number;
  /** Frames over which the motion ramps in from the rest pose (frame 0 is rest). @default 10 */
  rampFrames?: number;
}

const DEG = Math.PI / 180;

/** For each bone, the paint group of the feet below it when they all share one (a leg bone), else null. */
function legOf(model: RigModel, info: CreatureInfo): (string | null)[] {
  const groupOfKey = new Map<number, string>();
  for (const [g, ks] of Object.entries(info.groups))
    if (g !== 'body') for (const k of ks) groupOfKey.set(k, g);
  const sets: Set<string>[] = model.bones.map(() => new Set());
  for (const f of info.feet) {
    const g = groupOfKey.get(f) ?? `foot${f}`;
    for (let i = model.keypoints[f]!.bone; i >= 0; i = model.parent[i] as number) sets[i]!.add(g);
  }
  return sets.map((s, i) => (i > 0 && s.size === 1 ? ([...s][0] as string) : null));
}

/** A slow random wave: two sinusoids of 0.1-0.5 Hz, amplitude about 1. */
function wave(rng: Rng, fps: number): (f: number) => number {
  const f1 = rng.uniform(0.1, 0.5);
  const f2 = rng.uniform(0.1, 0.5);
  const p1 = rng.next();
  const p2 = rng.next();
  return (f) =>
    0.7 * Math.sin(2 * Math.PI * ((f1 * f) / fps + p1)) + 0.3 * Math.sin(2 * Math.PI * ((f2 * f) / fps + p2));
}

/**
 * A seeded gait-like motion within the rig's limits, as a generated clip of a walk or trot shows
 * it: the legs (bones whose feet, creature.json `feet`, all lie in one paint group) swing on
 * their flexion (X) axes at 0.8-1.4 Hz in a walk or trot phase pattern, at most 25 degrees about
 * a point 30% of the way to their range's middle; the other axes and the body move a few degrees
 * in slow waves; the root drifts a few cm and turns up to about 15 degrees. Frame 0 is the rest
 * pose (a generated clip starts from the reference frame) and the motion ramps in over
 * `rampFrames`; the lowest foot touches the ground on every frame. The render exam's motion; the
 * synthetic exam keeps `syntheticMotion`, which fills the limits.
 *
 * ```ts
 * const truth = gaitMotion(model, info, { frames: 120, seed: 1 });
 * ```
 */
export function gaitMotion(model: RigModel, info: CreatureInfo, options: GaitMotionOptions): FlatMotion {
  const t = options.frames;
  const fps = options.fps ?? 30;
  const rampFrames = options.rampFrames ?? 10;
  if (!Number.isInteger(t) || t < 1) throw new TypeError(`gaitMotion: Expected frames >= 1, got ${t}.`);
  const rng = createRng(options.seed);
  const b = model.bones.length;
  const k = model.keypoints.length;
  const ramp = (f: number) => {
    if (rampFrames <= 0 || f >= rampFrames) return 1;
    const s = f / rampFrames;
    return s * s * (3 - 2 * s);
  };
  const leg = legOf(model, info);
  const legs = [...new Set(leg.filter((x): x is string => x !== null))];
  const trot = rng.next() < 0.5;
  // walk: each leg a quarter cycle after the last; trot: diagonal pairs together.
  const phaseOf = new Map(
    legs.map((n, i) => [n, trot ? ((i % 2) * 0.5 + Math.floor(i / 2) * 0.5) % 1 : i * 0.25]),
  );
  const gaitHz = rng.uniform(0.8, 1.4);
  const gaitPhase = rng.next();
  const depth = new Int32Array(b);
  for (let i = 1; i < b; i++) {
    const p = model.parent[i] as number;
    depth[i] = leg[p] === leg[i] && leg[i] !== null ? (depth[p] as number) + 1 : 0;
  }
  const euler = new Float64Array(t * b * 3);
  for (let i = 1; i < b; i++) {
    for (let a = 0; a < 3; a++) {
      const lo = model.limits[i * 6 + 2 * a] as number;
      const hi = model.limits[i * 6 + 2 * a + 1] as number;
      const h = (hi - lo) / 2;
      const gait = leg[i] !== null && a === 0;
      const mid = gait ? 0.3 * ((lo + hi) / 2) : 0;
      const amp = gait ? Math.min(25 * DEG, 0.35 * h) : Math.min(6 * DEG, 0.15 * h);
      const ph = gaitPhase + (phaseOf.get(leg[i] as string) ?? 0) + 0.12 * (depth[i] as number);
      const w = wave(rng, fps);
      const margin = 0.05 * (hi - lo);
      for (let f = 0; f < t; f++) {
        const s = gait ? Math.sin(2 * Math.PI * ((gaitHz * f) / fps + ph)) + 0.15 * w(f) : w(f);
        const v = ramp(f) * (mid + amp * s);
        euler[(f * b + i) * 3 + a] = Math.min(hi - margin, Math.max(lo + margin, v));
      }
    }
  }
  const trans = new Float64Array(t * 3);
  const angles = new Float64Array(t * 3);
  const drift = [wave(rng, fps), wave(rng, fps)];
  const turn = [wave(rng, fps), wave(rng, fps), wave(rng, fps)];
  const turnAmp = [2 * DEG, 2 * DEG, 15 * DEG];
  for (let f = 0; f < t; f++) {
    const r = ramp(f);
    for (let c = 0; c < 2; c++) trans[3 * f + c] = r * 0.03 * (drift[c]!(f) - drift[c]!(0));
    for (let c = 0; c < 3; c++) angles[3 * f + c] = r * (turnAmp[c] as number) * (turn[c]!(f) - turn[c]!(0));
  }
  const rootQuat = new Float64Array(t * 4);
  const rootRot = new Float64Array(t * 9);
  const q = new Float64Array(4);
  for (let f = 0; f < t; f++) {
    eulerXyzToMat3(rootRot, f * 9, angles, f * 3);
    quatFromMat3(q, rootRot.subarray(f * 9, f * 9 + 9));
    const s = (q[3] as number) < 0 ? -1 : 1;
    rootQuat.set(
      [s * (q[3] as number), s * (q[0] as number), s * (q[1] as number), s * (q[2] as number)],
      f * 4,
    );
  }
  const joints = new Float64Array(t * k * 3);
  const rot = new Float64Array(b * 9);
  const pos = new Float64Array(b * 3);
  const feet = info.feet.length > 0 ? info.feet : model.keypoints.map((_, j) => j);
  for (let f = 0; f < t; f++) {
    trans[f * 3 + 2] = 0;
    poseFrame(model, rootRot, f * 9, trans, f * 3, euler, f * b * 3, rot, pos);
    keypointsFromPose(model, rot, pos, joints, f * k * 3);
    let low = Number.POSITIVE_INFINITY;
    for (const j of feet) low = Math.min(low, joints[(f * k + j) * 3 + 2] as number);
    trans[f * 3 + 2] = -low;
    for (let j = 0; j < k; j++) joints[(f * k + j) * 3 + 2] = (joints[(f * k + j) * 3 + 2] as number) - low;
  }
  return { frames: t, fps, trans, rootQuat, euler, joints };
}

import { type SeededRandom, seededRandom } from '@mocap/anim-loop';
import type { CreatureInfo } from './creature-info.js';
import type { FlatMotion } from './flat-motion.js';
import { groundedMotion } from './grounded-motion.js';
import { legGroups } from './leg-groups.js';
import type { RigModel } from './rig-model.js';

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

/** A slow random wave: two sinusoids of 0.1-0.5 Hz, amplitude about 1. */
function wave(rng: SeededRandom, fps: number): (f: number) => number {
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
  const rng = seededRandom(options.seed, { seedMix: 'golden', normal: 'pair' });
  const b = model.bones.length;
  const ramp = (f: number) => {
    if (rampFrames <= 0 || f >= rampFrames) return 1;
    const s = f / rampFrames;
    return s * s * (3 - 2 * s);
  };
  const leg = legGroups(model, info);
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
  return groundedMotion(model, info, { frames: t, fps, trans, rootAngles: angles, euler });
}

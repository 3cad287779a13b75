import { type SeededRandom, seededRandom } from '@mocap/anim-loop';
import type { CreatureInfo } from './creature-info.js';
import type { FlatMotion } from './flat-motion.js';
import { groundedMotion } from './grounded-motion.js';
import { legGroups } from './leg-groups.js';
import type { RigModel } from './rig-model.js';

/** Options of {@link syntheticMotion}. */
export interface SyntheticMotionOptions {
  frames: number;
  seed: number;
  /** @default 30 */
  fps?: number;
}

function smoothNoise(rng: SeededRandom, t: number, sigmaFrames: number, out: Float64Array): Float64Array {
  const pad = Math.ceil(3 * sigmaFrames);
  const raw = new Float64Array(t + 2 * pad);
  for (let i = 0; i < raw.length; i++) raw[i] = rng.normal();
  const k: number[] = [];
  for (let i = -pad; i <= pad; i++) k.push(Math.exp((-0.5 * i * i) / (sigmaFrames * sigmaFrames)));
  const norm = Math.sqrt(k.reduce((a, b) => a + b * b, 0));
  for (let i = 0; i < t; i++) {
    let s = 0;
    for (let j = 0; j < k.length; j++) s += (k[j] as number) * (raw[i + j] as number);
    out[i] = s / norm;
  }
  return out;
}

/**
 * A seeded random motion within the rig's limits, of the difficulty of a real clip: a gait of
 * 0.8-1.4 Hz on the leg flexion (X) axes, slow sinusoids of 0.15-0.8 Hz plus smoothed noise
 * on every free axis, together filling much of each limit range (squashed smoothly inside it);
 * a root that wanders a few cm and turns up to about 20 degrees; the lowest foot on the ground
 * each frame. Legs are the bones whose feet (creature.json `feet`) all lie in one paint group.
 *
 * ```ts
 * const truth = syntheticMotion(model, info, { frames: 120, seed: 1 });
 * ```
 */
export function syntheticMotion(
  model: RigModel,
  info: CreatureInfo,
  options: SyntheticMotionOptions,
): FlatMotion {
  const t = options.frames;
  const fps = options.fps ?? 30;
  const rng = seededRandom(options.seed, { seedMix: 'golden', normal: 'pair' });
  const b = model.bones.length;
  const euler = new Float64Array(t * b * 3);
  const limb = legGroups(model, info);
  const limbNames = [...new Set(limb.filter((x): x is string => x !== null))];
  const limbPhase = new Map(limbNames.map((n, i) => [n, (i * 0.5 + Math.floor(i / 2) * 0.25) % 1]));
  const gaitHz = rng.uniform(0.8, 1.4);
  const gaitPhase = rng.next();
  const depth = new Int32Array(b);
  for (let i = 1; i < b; i++)
    depth[i] =
      limb[model.parent[i] as number] === limb[i] ? (depth[model.parent[i] as number] as number) + 1 : 0;
  const noise = new Float64Array(t);
  for (let i = 1; i < b; i++) {
    for (let a = 0; a < 3; a++) {
      const lo = model.limits[i * 6 + 2 * a] as number;
      const hi = model.limits[i * 6 + 2 * a + 1] as number;
      const c = (lo + hi) / 2;
      const h = (hi - lo) / 2;
      const f1 = rng.uniform(0.15, 0.8);
      const f2 = rng.uniform(0.15, 0.8);
      const p1 = rng.next();
      const p2 = rng.next();
      const a1 = rng.uniform(0.2, 0.5);
      const a2 = rng.uniform(0.15, 0.35);
      smoothNoise(rng, t, 6, noise);
      const gait = limb[i] !== null && a === 0;
      const ph = gait ? gaitPhase + (limbPhase.get(limb[i] as string) ?? 0) + 0.1 * (depth[i] as number) : 0;
      const ga = gait ? rng.uniform(0.7, 1.0) : 0;
      for (let f = 0; f < t; f++) {
        const s =
          a1 * Math.sin(2 * Math.PI * ((f1 * f) / fps + p1)) +
          a2 * Math.sin(2 * Math.PI * ((f2 * f) / fps + p2)) +
          0.25 * (noise[f] as number) +
          ga * Math.sin(2 * Math.PI * ((gaitHz * f) / fps + ph));
        euler[(f * b + i) * 3 + a] = c + h * 0.9 * Math.tanh(s);
      }
    }
  }
  // The root: a few cm of wander, up to ~20 degrees of turn, a little pitch and roll.
  const trans = new Float64Array(t * 3);
  const wander = (amp: number, out: Float64Array, stride: number, off: number) => {
    const f1 = rng.uniform(0.1, 0.4);
    const p1 = rng.next();
    smoothNoise(rng, t, 8, noise);
    for (let f = 0; f < t; f++) {
      out[f * stride + off] =
        amp * (0.7 * Math.sin(2 * Math.PI * ((f1 * f) / fps + p1)) + 0.3 * (noise[f] as number));
    }
  };
  const angles = new Float64Array(t * 3);
  wander(0.03, trans, 3, 0);
  wander(0.04, trans, 3, 1);
  wander((4 * Math.PI) / 180, angles, 3, 0);
  wander((4 * Math.PI) / 180, angles, 3, 1);
  wander((18 * Math.PI) / 180, angles, 3, 2);
  return groundedMotion(model, info, { frames: t, fps, trans, rootAngles: angles, euler });
}

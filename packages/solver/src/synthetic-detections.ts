import { seededRandom } from '@mocap/anim-loop';
import { type Detections, IDENTITY_CALIB, type Layout, projectPoints } from '@mocap/layout';
import type { CreatureInfo } from './creature-info.js';

/** How {@link syntheticDetections} corrupts projected truth. */
export interface CorruptionOptions {
  /** Gaussian noise per coordinate, px. @default 0 */
  noisePx?: number;
  /** Fraction of (frame, joint, view) detections replaced by a point uniform over that view. @default 0 */
  outliers?: number;
  /** Fraction of frames where one view (chosen at random) has one left/right unit swapped. @default 0 */
  swaps?: number;
  /** Frames the front view lags the side view (front at frame t shows the truth of t - lag). @default 0 */
  lagFrames?: number;
  seed: number;
}

/**
 * Two-view detections of known joints (T x K x 3 metres) through the layout's projections,
 * corrupted as asked. Joints whose projection leaves their view get confidence 0 and NaN
 * coordinates; every other detection has confidence 1.
 *
 * ```ts
 * const det = syntheticDetections(truth.joints, names, 30, layout, info, { noisePx: 2, outliers: 0.05, seed: 1 });
 * ```
 */
export function syntheticDetections(
  joints: Float64Array,
  names: string[],
  fps: number,
  layout: Layout,
  info: CreatureInfo,
  options: CorruptionOptions,
): Detections {
  const k = names.length;
  const t = joints.length / (3 * k);
  const rng = seededRandom(options.seed * 7919 + 17, { seedMix: 'golden', normal: 'pair' });
  const front = new Float64Array(t * k * 2);
  const side = new Float64Array(t * k * 2);
  projectPoints(front, side, joints, layout);
  const frontUv = new Float32Array(t * k * 2);
  const sideUv = new Float32Array(t * k * 2);
  const frontConf = new Float32Array(t * k);
  const sideConf = new Float32Array(t * k);
  const lag = Math.round(options.lagFrames ?? 0);
  const sigma = options.noisePx ?? 0;
  const outliers = options.outliers ?? 0;
  const views = [
    { src: front, uv: frontUv, conf: frontConf, u0: 0, u1: layout.W_FRONT, shift: lag },
    { src: side, uv: sideUv, conf: sideConf, u0: layout.W_FRONT, u1: layout.WIDTH, shift: 0 },
  ];
  for (const v of views) {
    for (let f = 0; f < t; f++) {
      const g = f - v.shift;
      for (let j = 0; j < k; j++) {
        const o = f * k + j;
        if (g < 0 || g >= t) {
          v.uv[2 * o] = Number.NaN;
          v.uv[2 * o + 1] = Number.NaN;
          continue;
        }
        let u = (v.src[2 * (g * k + j)] as number) + sigma * rng.normal();
        let w = (v.src[2 * (g * k + j) + 1] as number) + sigma * rng.normal();
        const inside = u >= v.u0 && u < v.u1 && w >= 0 && w < layout.HEIGHT;
        if (!inside) {
          v.uv[2 * o] = Number.NaN;
          v.uv[2 * o + 1] = Number.NaN;
          continue;
        }
        if (rng.next() < outliers) {
          u = rng.uniform(v.u0, v.u1);
          w = rng.uniform(0, layout.HEIGHT);
        }
        v.uv[2 * o] = u;
        v.uv[2 * o + 1] = w;
        v.conf[o] = 1;
      }
    }
  }
  const swaps = options.swaps ?? 0;
  if (swaps > 0 && info.swapUnits.length > 0) {
    for (let f = 0; f < t; f++) {
      if (rng.next() >= swaps) continue;
      const v = views[rng.int(2)]!;
      const [a, b] = info.swapUnits[rng.int(info.swapUnits.length)]!;
      a.forEach((ja, i) => {
        const jb = b[i] as number;
        const oa = f * k + ja;
        const ob = f * k + jb;
        for (let c = 0; c < 2; c++) {
          const x = v.uv[2 * oa + c] as number;
          v.uv[2 * oa + c] = v.uv[2 * ob + c] as number;
          v.uv[2 * ob + c] = x;
        }
        const x = v.conf[oa] as number;
        v.conf[oa] = v.conf[ob] as number;
        v.conf[ob] = x;
      });
    }
  }
  return {
    names,
    fps,
    frames: t,
    frontUv,
    sideUv,
    frontConf,
    sideConf,
    calib: Float64Array.from(IDENTITY_CALIB),
  };
}
